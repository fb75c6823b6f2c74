// RFC 9457 problem details. Each kind of failure has its own stable `type` URI so that a
// client can branch on it without parsing the human-readable `title` or `detail`.
import { PUBLIC_ORIGIN, type MetaBody } from './meta.js';

const PROBLEM_BASE = `${PUBLIC_ORIGIN}/problems/`;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  meta?: MetaBody;
}

const TITLES: Record<string, [number, string]> = {
  'invalid-request': [400, 'Invalid request'],
  unauthorized: [401, 'Unauthorized'],
  'forecast-not-expired': [403, 'Forecast not yet expired'],
  'not-found': [404, 'Not found'],
  'unknown-symbol': [404, 'Unknown symbol'],
  'method-not-allowed': [405, 'Method not allowed'],
  'email-already-registered': [409, 'E-mail already registered'],
  'payload-too-large': [413, 'Payload too large'],
  'rate-limited': [429, 'Too many requests'],
  'internal-error': [500, 'Internal error'],
  unavailable: [503, 'Service unavailable'],
};

export type ProblemSlug = keyof typeof TITLES;

export class HttpProblem extends Error {
  constructor(
    readonly slug: ProblemSlug,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  get status(): number {
    return (TITLES[this.slug] ?? [500])[0];
  }

  body(meta: MetaBody): ProblemBody {
    const [status, title] = TITLES[this.slug] ?? [500, 'Internal error'];
    return { type: PROBLEM_BASE + this.slug, title, status, detail: this.detail, meta };
  }
}

export const badRequest = (detail: string): HttpProblem => new HttpProblem('invalid-request', detail);
