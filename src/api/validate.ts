// Responses are checked against the documented shapes. Off-shape is a warning (the body still
// prints with --json, since the service may be ahead of us, and as a generic document without
// it), or exit 7 under --strict. The judgement itself writes nothing: `judgeShape` returns it.
import type { ZodType } from 'zod';
import { BadResponseError } from '../core/errors.js';
import { NestedTooDeeplyError, nestsDeeperThan } from '../core/values.js';
import type { ApiResponse } from './client.js';
import type { ApiLog } from './log.js';
import { PRECOMPILED } from './accept-table.js';
import { quickAcceptor } from './quick-accept.js';
import { NOT_THE_API } from './response-errors.js';
import type { SchemaName } from '../schema/bodies.js';

export interface ShapeCheck {
  log: ApiLog;
  strict: boolean;
}

/**
 * The body as JSON, or exit 7: a success that is not JSON is not an answer we can use, and
 * one nested deeper than any real body is refused before anything walks or re-indents it.
 * (A leading byte order mark was already dropped by the client, as WHATWG fetch's json() does.)
 */
export function requireJson(res: ApiResponse, what: string): unknown {
  if (res.body === undefined) {
    const start = visibleStart(res.raw);
    throw new BadResponseError(
      `${what}: the response is not JSON${start ? ` (it starts '${start}')` : ' (it is empty)'}`,
      notJsonHint(res.raw),
    );
  }
  if (nestsDeeperThan(res.body)) throw new NestedTooDeeplyError(what);
  return res.body;
}

// PHP's own error output (html_errors on or off): the service's code failed, whatever the status.
const PHP_FAILURE = /^(?:<br \/>\s*)?(?:<b>)?(?:PHP )?(?:Fatal|Parse) error(?:<\/b>)?:/;

function notJsonHint(raw: string): { hint: string } | undefined {
  // PHP with display_errors on answers a fatal error 200, with the error as the page.
  if (PHP_FAILURE.test(raw.trimStart()))
    return {
      hint: 'the service failed (an error of its own code, not an answer): try again later, and tell whoever runs it',
    };
  // The API's JSON after something else: a PHP warning or notice printed first, say, or a
  // second byte order mark. The service is broken, not the base URL.
  const at = jsonStart(raw);
  if (at !== undefined) {
    const before = raw.slice(0, at).replace(INVISIBLE, '').trim();
    return {
      hint: `${before ? 'the JSON comes after other output (a warning printed by the service?)' : 'invisible characters (shown escaped) come before the JSON'}: the service needs fixing`,
    };
  }
  // A web page where the API should be: most likely some other server at the base URL.
  if (raw.trimStart().startsWith('<')) return { hint: `${NOT_THE_API} ('fcast doctor' checks it)` };
  return undefined;
}

/** Where a JSON object that ends the text begins, after something that is not JSON. */
function jsonStart(raw: string): number | undefined {
  // The last line that opens an object, then the first brace; a few tries, never a scan of every brace.
  for (const at of new Set([raw.lastIndexOf('\n{') + 1, raw.indexOf('{')])) {
    if (at <= 0) continue;
    try {
      JSON.parse(raw.slice(at));
      return at;
    } catch {}
  }
  return undefined;
}

// Invisible or terminal-moving characters: C0 and C1 controls, DEL, the byte order mark, soft
// hyphen, zero-width and bidi controls, line and paragraph separators.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The first characters of a body, each invisible one written out (`\ufeff`, `\n`, `\u001b`):
 * a message must not show what looks like valid JSON while something unseen breaks it.
 */
export function visibleStart(raw: string, max = 60): string {
  const start = raw.length > max ? `${raw.slice(0, max)}…` : raw;
  return start.replace(INVISIBLE, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A schema's verdict: the first broken field, and how many more, as a sentence; or undefined when it matched. */
function judgeShape(schema: ZodType, body: unknown, what: string): string | undefined {
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  const { issues } = result.error;
  const issue = issues[0]!;
  // Paths are the server's keys: shortened, so a 20,000-character key makes no 20,000-character
  // warning, and JSON-quoted unless plain, so a tab or newline in a key shows as \t or \n.
  const where = issue.path.length ? issue.path.map((p) => short(pathPart(p), 40)).join('.') : 'the body';
  const more = issues.length > 1 ? ` and ${issues.length - 1} more` : '';
  // A message may quote a received value: kept to one line.
  const message = short(issue.message.replace(/\s+/g, ' '), 120);
  return `${what}: the response does not match the documented shape (${where}: ${message})${more}`;
}

const pathPart = (p: string | number): string =>
  typeof p === 'number' || /^[\w/-]+$/.test(p) ? String(p) : JSON.stringify(p);

/**
 * checkShape by the schema's name: a body the bundle's precompiled predicate accepts is
 * judged without loading zod or building a schema; any other, by the schema itself.
 */
export async function checkNamedShape(
  name: SchemaName,
  body: unknown,
  what: string,
  opts: ShapeCheck,
): Promise<boolean> {
  const precompiled = PRECOMPILED[name];
  if (precompiled?.(body)) return true;
  const { SCHEMAS } = await import('../schema/bodies.js');
  // The table said no: no second predicate, zod's verdict.
  return precompiled ? reportShape(SCHEMAS[name], body, what, opts) : checkShape(SCHEMAS[name], body, what, opts);
}

/** Checks the shape; returns whether it matched. Off-shape is a warning, or exit 7 under --strict. */
export function checkShape(schema: ZodType, body: unknown, what: string, opts: ShapeCheck): boolean {
  // The common case answered without zod; zod still words every refusal.
  return quickAcceptor(schema)(body) || reportShape(schema, body, what, opts);
}

/** zod's verdict, told: true when it matched, else a warning (or exit 7 under --strict) and false. */
function reportShape(schema: ZodType, body: unknown, what: string, opts: ShapeCheck): boolean {
  const problem = judgeShape(schema, body, what);
  if (problem === undefined) return true;
  if (opts.strict) throw new BadResponseError(problem.replace(/ and \d+ more$/, ''));
  opts.log.warn(problem);
  return false;
}

const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
