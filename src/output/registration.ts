// What `register` shows once: the new key, the service's note about it, the tier, limits and
// endpoints, where the key went, and the attribution. The seed fixes no fields inside
// `limits` and `endpoints`, so they are listed as they come.
import { withAttribution } from './attribution.js';
import { DASH } from './format.js';
import type { Output } from './io.js';
import { clean } from './sanitize.js';
import { displayWidth, renderPairs, textWidth, wrapText } from './table.js';
import { isRecord, maxOf } from '../core/values.js';

// Keys and values are the server's: cleaned here (renderPairs cleans the value as a whole, but
// a key's length also sets the padding of the others).
const scalar = (v: unknown): string => clean(v === null || typeof v !== 'object' ? String(v) : JSON.stringify(v));
const MAX_KEY_PAD = 32;

export interface RegistrationView {
  api_key: string;
  important?: unknown;
  tier?: unknown;
  limits?: unknown;
  endpoints?: unknown;
  meta?: unknown;
}

/** The key itself: printed before it is saved, so no crash while saving can leave it nowhere but a temp file. */
export function renderNewKey(out: Output, body: RegistrationView): string {
  return [
    out.c.bold('Your new API key (shown only this once; keep it secret):'),
    '',
    `  ${out.c.green(clean(body.api_key))}`,
  ].join('\n');
}

/** The rest, after the key; `saved` says where the key was stored, or why it was not. */
export function renderRegistrationDetails(out: Output, body: RegistrationView, saved: string): string {
  const lines = [''];
  if (typeof body.important === 'string') lines.push(out.c.yellow(wrapText(out, clean(body.important))), '');

  const pairs: Array<[string, string]> = [['Tier', typeof body.tier === 'string' ? clean(body.tier) : DASH]];
  if (isRecord(body.limits)) {
    const limits = Object.entries(body.limits).map(([k, v]) => `${clean(k)} ${scalar(v)}`);
    pairs.push(['Limits', limits.length ? limits.join(' · ') : DASH]);
  }
  const after: Array<[string, string]> = [['Saved', saved]];
  const keyWidth = maxOf([...pairs, ...after].map(([k]) => displayWidth(k)).concat(displayWidth('Endpoints')));
  let stacked: string[] = [];
  if (isRecord(body.endpoints)) {
    const entries = Object.entries(body.endpoints).map(([k, v]): [string, string] => [clean(k), scalar(v)]);
    const width = Math.min(MAX_KEY_PAD, maxOf(entries.map(([k]) => k.length)));
    const beside = entries.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
    // Each URL beside its name while every line fits; else each name on a line and its URL,
    // whole, on the next (a URL is never broken, and never set apart from its name).
    const room = textWidth(out) - keyWidth - 2;
    if (beside.every((line) => displayWidth(line) <= room))
      for (const [i, line] of beside.entries()) pairs.push([i === 0 ? 'Endpoints' : '', line]);
    else stacked = [out.c.dim('Endpoints'), ...entries.flatMap(([k, v]) => [`  ${k}`, urlLine(out, v)])];
  }
  lines.push(renderPairs(out, pairs, keyWidth), ...stacked, renderPairs(out, after, keyWidth));

  return withAttribution(out, lines.join('\n'), body.meta);
}

/** An endpoint's URL under its name: indented where it fits, else from the first column, whole. */
function urlLine(out: Output, url: string): string {
  const indented = `    ${url}`;
  return displayWidth(indented) <= textWidth(out) ? indented : url;
}
