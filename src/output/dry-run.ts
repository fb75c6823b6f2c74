// --dry-run's output: the prepared requests as curl-like text blocks, or JSON (an array for several).
import { stringifyJson } from './json.js';

/** A prepared request as the client shows it (key masked). */
export interface DryRunRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export function renderDryRun(requests: DryRunRequest[], json: boolean): string {
  if (json) return stringifyJson(requests.length === 1 ? requests[0] : requests);
  return requests
    .map((r) => {
      const lines = [`${r.method} ${r.url}`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`)];
      if (r.body !== null) lines.push('', stringifyJson(r.body));
      return lines.join('\n');
    })
    .join('\n\n');
}
