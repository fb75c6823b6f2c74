// Responses are checked against the documented shapes. Off-shape is a warning (the body still
// prints with --json, since the service may be ahead of us), or exit 7 under --strict.
import type { ZodType } from 'zod';
import { BadResponseError } from '../errors.js';
import type { ApiResponse } from './client.js';
import type { ApiLog } from './log.js';
import { NOT_THE_API } from './response-errors.js';

export interface ShapeCheck {
  log: ApiLog;
  strict: boolean;
}

/** The body as JSON, or exit 7: a success that is not JSON is not an answer we can use. */
export function requireJson(res: ApiResponse, what: string): unknown {
  if (res.body === undefined) {
    // Shown through the output layer, which strips control characters.
    const start = res.raw.slice(0, 60).replace(/\s+/g, ' ').trim();
    throw new BadResponseError(
      `${what}: the response is not JSON${start ? ` (it starts '${start}')` : ' (it is empty)'}`,
      // A web page where the API should be: most likely some other server at the base URL.
      start.startsWith('<') ? { hint: `${NOT_THE_API} ('fcast doctor' checks it)` } : undefined,
    );
  }
  return res.body;
}

/** Checks the shape; returns whether it matched. */
export function checkShape(schema: ZodType, body: unknown, what: string, opts: ShapeCheck): boolean {
  const result = schema.safeParse(body);
  if (result.success) return true;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? issue.path.join('.') : 'the body';
  const message = `${what}: the response does not match the documented shape (${where}: ${issue.message})`;
  if (opts.strict) throw new BadResponseError(message);
  opts.log.warn(`${message}${result.error.issues.length > 1 ? ` and ${result.error.issues.length - 1} more` : ''}`);
  return false;
}
