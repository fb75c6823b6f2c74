// `fcast api PATH`: a raw request to any path of the configured service, as `gh api` makes
// one, through the one client (keys, deadline, size cap, same-origin redirects, retries) and
// the one output boundary (every byte passes the redactor).
import type { Run } from '../cmdutil/command.js';
import { readFile, stat } from 'node:fs/promises';
import { defineCommand, flag, valueFlag } from '../cmdutil/define.js';
import { parseChoice, shown } from '../cmdutil/input.js';
import { UsageError } from '../core/errors.js';
import type { Field } from '../api/raw-request.js';
import { API_METHODS, type ApiMethod } from '../core/domain.js';

const LOWER_METHODS = API_METHODS.map((m) => m.toLowerCase());

/** name=value, checked when the line is read (exit 2); -F's value typed. */
function parseField(raw: string, typed: boolean): Field {
  const at = raw.indexOf('=');
  if (at <= 0) {
    throw new UsageError(`a field is name=value, not ${shown(raw)}`, {
      hint: "e.g. -f symbol=BTC/USD; see 'fcast api --help'",
    });
  }
  const text = raw.slice(at + 1);
  return { name: raw.slice(0, at), value: typed ? typedValue(text) : text };
}

/** gh's -F: true, false, null, numbers and any JSON text as their JSON value; anything else as typed. */
function typedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const fields = (typed: boolean) => (raw: string, previous: Field[] | undefined) => [
  ...(previous ?? []),
  parseField(raw, typed),
];

export default defineCommand({
  name: 'api',
  summary: 'a raw request to any path of the service',
  description:
    'Sends one request to PATH, relative to the base URL (api/agent/v1/symbols.php), and prints the body as the server sent it: re-indented on a terminal, byte for byte when piped (keys masked either way). ' +
    'The REST key goes to the REST paths (api/agent/v1/...), the gateway key (else the REST key) to api/v1/agent/command, no key anywhere else; a path that needs none works without one. ' +
    "A full URL is taken only when it is of the base URL's origin: any other is refused (exit 2) before anything is sent. " +
    "The exit code follows the status, as every command's does (404 is 4, 401 is 3, 5xx is 6); the body of an error is printed too. Only a GET is retried.",
  args: [{ name: '<path>', help: 'a path of the service, or a URL of its origin' }],
  flags: {
    method: valueFlag<ApiMethod>(
      '-X, --method <method>',
      `${API_METHODS.join(', ')} (default GET; POST with --input)`,
      (raw) =>
        // parseChoice folds to lower case: it is given the methods so, and their names come back upper.
        parseChoice(raw, LOWER_METHODS, 'the method').toUpperCase() as ApiMethod,
    ),
    rawField: valueFlag<Field[]>(
      '-f, --raw-field <name=value>',
      'a string field, repeatable: the query of a GET, else a field of the JSON body',
      fields(false),
    ),
    field: valueFlag<Field[]>(
      '-F, --field <name=value>',
      'a typed field, repeatable: true, false, null, numbers and JSON as their value',
      fields(true),
    ),
    input: valueFlag<string>(
      '--input <file>',
      'the body, sent as it is (- for stdin); fields then go to the query',
      (raw) => raw,
    ),
    include: flag('-i, --include', 'print the status line and the headers on stderr'),
  },
  formats: ['json'],
  examples: [
    ['fcast api api/agent/v1/symbols.php', 'the symbols your key can use, with the REST key'],
    [
      'fcast api api/agent/v1/predictions.php -f symbol=BTC/USD | jq .meta',
      'a query field; the body piped as received',
    ],
    [
      'echo \'{"command":"macro","args":[]}\' | fcast api api/v1/agent/command --input -',
      'a gateway command, with the gateway key',
    ],
    ['fcast api api/v1/agent/command -f command=macro -F args=[] -X POST', 'the same, from fields'],
    ['fcast api -i api/agent/v1/', 'the discovery document, with the status and headers'],
    ['fcast api api/agent/v1/symbols.php --dry-run', 'the request that would be sent, key masked'],
  ],
  notes: [
    [
      'Exit codes',
      '0 for a 2xx answer with a JSON body; 7 for one without; 2 for 400 and the other 4xx; 3 for 401, 403, 407; 4 for 404, 410; 5 for 429 after the retries; 6 for 408, 5xx and a service out of reach; 9 for 409.',
    ],
  ],
  run: (run, flags, path: string) => api(run, flags, path),
});

interface ApiFlags {
  method?: ApiMethod;
  rawField?: Field[];
  field?: Field[];
  input?: string;
  include?: boolean;
}

async function api(run: Run, flags: ApiFlags, path: string): Promise<number | undefined> {
  const { rawRequest } = await import('../api/raw-request.js');
  // The base URL first (exit 3 without one): a path means nothing without it, and a URL is
  // judged against its origin before anything else happens, the body's file included.
  const base = run.settings().requireBaseUrl();
  const given = { path, method: flags.method, fields: [...(flags.rawField ?? []), ...(flags.field ?? [])] };
  rawRequest(given, base);
  const input = flags.input === undefined ? undefined : await readInput(run, flags.input);
  const spec = rawRequest({ ...given, input }, base);
  const conn = await run.connect();
  if (run.flags.dryRun) return run.dryRun(spec);
  const { client } = conn;
  if (spec.auth !== 'none' && client.keyIfAny(spec.auth) === undefined)
    run.out.debug(`no ${spec.auth === 'gateway' ? 'gateway or REST' : 'REST'} key is set: sent without one`);
  const res = await client.sendPrepared(client.prepare(spec), { anyStatus: true });
  if (flags.include) run.out.note(await statusAndHeaders(res.status, res.headers));
  await printBody(run, res.raw, res.body);
  if (res.status >= 200 && res.status <= 299) {
    if (res.body !== undefined) return;
    const { BadResponseError } = await import('../core/errors.js');
    throw new BadResponseError(
      `HTTP ${res.status}, and the body is not JSON${res.raw === '' ? ' (it is empty)' : ''}: printed as received`,
    );
  }
  // The error line and the code of the status table; the body is printed already (not twice under --json).
  const error = client.errorOf(res);
  delete error.details.raw;
  throw error;
}

/** The body to stdout: on a terminal (or with --json) re-indented and sanitised; piped, the text as received. */
async function printBody(run: Run, raw: string, body: unknown): Promise<void> {
  if (run.flags.json || run.out.tty) {
    if (body !== undefined) return run.out.rawJson(raw);
    // --json promises one JSON document on stdout, or nothing: the text is for a terminal only.
    if (raw === '' || run.flags.json) return;
    const { cleanBlock } = await import('../output/sanitize.js');
    return run.out.data(cleanBlock(raw));
  }
  // One write: the redactor sees the whole body, so no key is split between two chunks.
  if (raw !== '') run.out.io.stdout.write(raw);
}

/** The body of --input: a file, or stdin for `-`; at most the client's size cap. */
async function readInput(run: Run, file: string): Promise<string> {
  const [{ UsageError }, { MAX_BODY_BYTES }] = await Promise.all([
    import('../core/errors.js'),
    import('../api/client.js'),
  ]);
  const tooLarge = () =>
    new UsageError(`the --input body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB; not sent`);
  if (file === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of run.ctx.io.stdin) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > MAX_BODY_BYTES) throw tooLarge();
      chunks.push(bytes);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    if ((await stat(file)).size > MAX_BODY_BYTES) throw tooLarge();
    return await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read the --input file ${file}${code ? ` (${code})` : ''}`, {
      hint: 'give a readable file, or - for stdin',
    });
  }
}

async function statusAndHeaders(
  status: number,
  headers: Record<string, string | string[] | undefined>,
): Promise<string> {
  const { statusText } = await import('../api/response-errors.js');
  const lines = [`HTTP ${status}${statusText(status) ? ` ${statusText(status)}` : ''}`];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  return lines.join('\n');
}
