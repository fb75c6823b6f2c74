// --dry-run: the client builds the request, then throws it instead of sending it; main (or a
// command that makes several requests) prints it. Nothing here touches the network.
import { ExitCode, FcastError } from '../errors.js';
import { stringifyJson } from '../output/json.js';

/** A request as --dry-run shows it: the key masked. */
export interface DryRunRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Thrown instead of sending under --dry-run: nothing was sent, and that is success. main prints it. */
export class DryRunDone extends FcastError {
  constructor(readonly request: DryRunRequest) {
    super('dry run', ExitCode.Ok);
  }
}

/** Requests as --dry-run prints them: curl-like text blocks, or JSON (an array for several). */
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
