// The licence of the free data requires citing meta.source: every table of a response that
// carries meta ends with it, verbatim, and the tier and data delay beside it.
import type { Output } from './io.js';
import { clean } from './sanitize.js';

interface MetaLike {
  source?: unknown;
  tier?: unknown;
  data_delay_min?: unknown;
  disclaimer?: unknown;
}

/** The closing lines of a table: disclaimer, attribution, tier and delay (the last three lines). */
export function attributionFooter(out: Output, meta: unknown): string {
  if (meta === null || typeof meta !== 'object') return '';
  const m = meta as MetaLike;
  const lines: string[] = [];
  if (typeof m.disclaimer === 'string') lines.push(out.c.dim(clean(m.disclaimer)));
  if (typeof m.source === 'string') lines.push(`Source: ${clean(m.source)}`);
  const tier = typeof m.tier === 'string' ? `tier ${clean(m.tier)}` : 'tier unknown';
  const delay = typeof m.data_delay_min === 'number' ? `data delayed ${m.data_delay_min} min` : 'data delay unknown';
  lines.push(`Tier: ${tier} · ${delay}`.replace('Tier: tier', 'Tier:'));
  return lines.join('\n');
}
