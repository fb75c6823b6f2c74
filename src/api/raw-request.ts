// `fcast api`'s request, as a value: where PATH leads (only ever the configured origin), which
// key it carries (the REST key on REST paths, the gateway key on the gateway's), how -f/-F
// fields and --input become the query or the body, and which retry policy applies. Pure: the
// command reads the files and sends it through the one client.
import { type ApiMethod, GATEWAY_PATH, REST_PREFIX } from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import type { Auth, RequestSpec } from './client.js';

export { API_METHODS, type ApiMethod } from '../core/domain.js';

/** One `-f name=value` (a string) or `-F name=value` (its JSON value), parsed by the command. */
export interface Field {
  name: string;
  value: unknown;
}

export interface RawRequestInput {
  /** As typed: `api/agent/v1/symbols.php`, `/api/agent/v1/symbols.php?x=1`, or a URL of the base's origin. */
  path: string;
  method?: ApiMethod;
  fields: readonly Field[];
  /** The --input body, read by the command. */
  input?: string;
}

/**
 * The URL PATH stands for, under `base` (the base URL with its trailing slash). A URL of
 * another origin, or a path that leads to one (`//host`, `\\host`), is exit 2: the key must
 * never leave for another host, so this is decided before any key is chosen or anything sent.
 */
export function targetOf(path: string, base: URL): URL {
  if (path.trim() === '') throw new UsageError('PATH is empty', { hint: 'e.g. fcast api api/agent/v1/symbols.php' });
  // `//host/x` (or `\\host`) names a host, as a browser reads it: judged as the URL it is.
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(path) || /^[/\\]{2}/.test(path);
  // A path is relative to the base URL, with or without its leading slash (as gh api takes it).
  const url = absolute ? safeUrl(path, base) : safeUrl(path.replace(/^[/\\]+/, ''), base);
  if (url === undefined || url.origin !== base.origin || url.username !== '' || url.password !== '') {
    throw new UsageError(
      `refusing ${absolute ? 'a URL' : 'a path'} that leads to ${url === undefined || url.origin === 'null' ? 'no http(s) origin' : url.origin}, not the configured service (${base.origin}); nothing was sent`,
      {
        hint: "give a path of the service (e.g. api/agent/v1/symbols.php); its base URL is set with --base-url or 'fcast config set base-url'",
      },
    );
  }
  url.hash = '';
  return url;
}

function safeUrl(text: string, base?: URL): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

/** Which key a URL of the service gets: the gateway's on its path, the REST key on the REST paths, none elsewhere. */
export function authOf(url: URL, base: URL): Auth {
  const path = url.pathname.replace(/\/+$/, '');
  if (path === `${base.pathname}${GATEWAY_PATH}`) return 'gateway';
  if (`${path}/`.startsWith(`${base.pathname}${REST_PREFIX}`)) return 'rest';
  return 'none';
}

/**
 * The request: GET unless -X says otherwise or --input gives a body (then POST, as gh api
 * does); fields in the query for a GET or beside --input, else the fields of a JSON object body.
 * Only a GET is retried (the contract's retries); any other method is sent once.
 */
export function rawRequest(given: RawRequestInput, base: URL): RequestSpec {
  const method: ApiMethod = given.method ?? (given.input !== undefined ? 'POST' : 'GET');
  if (method === 'GET' && given.input !== undefined) {
    throw new UsageError('a GET carries no body: --input needs -X POST (or PUT, PATCH, DELETE)', {
      hint: "see 'fcast api --help'",
    });
  }
  const url = targetOf(given.path, base);
  const inQuery = method === 'GET' || given.input !== undefined;
  let body: Record<string, unknown> | undefined;
  for (const { name, value } of given.fields) {
    if (inQuery) url.searchParams.append(name, typeof value === 'string' ? value : JSON.stringify(value));
    else {
      body ??= {};
      body[name] = value;
    }
  }
  // Every byte passes the redactor, which would mask the new key: it would be issued, and lost.
  if (method !== 'GET' && url.pathname.replace(/\/+$/, '') === `${base.pathname}${REST_PREFIX}register.php`) {
    throw new UsageError(
      "refusing to register through 'fcast api': the new key would be masked in its output, and lost",
      {
        hint: "run 'fcast register --email ADDRESS', which prints the key and saves it",
      },
    );
  }
  const auth = authOf(url, base);
  const spec: RequestSpec = {
    method,
    // Whole: a path such as `//host` would lead the client's resolution to another origin.
    path: url.href,
    auth,
    keyIfAny: true,
    retry: method === 'GET' ? 'idempotent' : 'never',
  };
  if (given.input !== undefined) spec.rawBody = given.input;
  else if (body !== undefined) spec.body = body;
  return spec;
}
