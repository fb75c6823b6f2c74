// The licence of the free data requires citing meta.source: every table of a response that
// carries meta ends with it, verbatim, and the tier and data delay beside it.
import type { Output } from './io.js';
import { clean } from './sanitize.js';
import { wrapText } from './table.js';

interface MetaLike {
  source?: unknown;
  tier?: unknown;
  data_delay_min?: unknown;
  disclaimer?: unknown;
  server_t?: unknown;
}

/**
 * The closing lines of a table: disclaimer, attribution, tier and delay (the last three lines).
 * `text` makes server text fit to print (clean for a terminal, markdownText for Markdown);
 * `recorded`, the tier and delay of what the table shows when they are not the response's own
 * (the journal's forecasts, under a track record's attribution).
 */
export function attributionFooter(
  out: Output,
  meta: unknown,
  text: (s: string) => string = clean,
  recorded?: { tier: string; delay: string },
): string {
  if (meta === null || typeof meta !== 'object') return '';
  const m = meta as MetaLike;
  const lines: string[] = [];
  // The disclaimer may wrap on a narrow terminal; the attribution line is never cut (the licence).
  if (typeof m.disclaimer === 'string') lines.push(out.c.dim(wrapText(out, text(m.disclaimer))));
  if (typeof m.source === 'string') lines.push(`Source: ${text(m.source)}`);
  const tier = recorded ? text(recorded.tier) : typeof m.tier === 'string' ? text(m.tier) : 'unknown';
  const delay = recorded
    ? recorded.delay
    : typeof m.data_delay_min === 'number'
      ? `data delayed ${m.data_delay_min} min`
      : 'data delay unknown';
  lines.push(`Tier: ${tier} · ${delay}`);
  return lines.join('\n');
}

/** A table's text, then the attribution footer when the response carries meta. */
export function withAttribution(out: Output, text: string, meta: unknown): string {
  const footer = attributionFooter(out, meta);
  return footer ? `${text}\n\n${footer}` : text;
}

/** The server's clock (`meta.server_t`) when it sent one: ages are measured against it. */
export function serverNow(meta: unknown, fallbackSeconds: number): number {
  const t = meta !== null && typeof meta === 'object' ? (meta as MetaLike).server_t : undefined;
  return typeof t === 'number' && Number.isFinite(t) ? t : fallbackSeconds;
}
