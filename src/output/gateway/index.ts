// The gateway's answer for people: each of the eight commands has a view of its own (the
// shapes are the ones the gateway sends; the seed does not fix them). `data` in any other
// shape is shown by the generic renderer, so an unexpected answer is still readable.
import { withAttribution } from '../attribution.js';
import { renderBlock, renderRecords } from '../document.js';
import { isoToEpoch } from '../format.js';
import type { Output } from '../io.js';
import { isRecord } from '../../core/values.js';
import { analyzeView, indicatorsView } from './analysis.js';
import { searchView, snapshotView } from './market.js';
import { macroView, opportunitiesView } from './ranking.js';
import { calendarView, eventsView } from './schedule.js';
import type { GatewayView } from './shared.js';

const VIEWS: Record<string, GatewayView> = {
  snapshot: snapshotView,
  search: searchView,
  indicators: indicatorsView,
  analyze: analyzeView,
  opportunities: opportunitiesView,
  macro: macroView,
  calendar: calendarView,
  events: eventsView,
};

/** Any `data`, generically: key/value blocks, lists of records as tables. */
function renderGenericData(out: Output, data: unknown, nowSeconds: number): string {
  if (data === null || data === undefined) return '(no data)';
  if (Array.isArray(data) && data.length > 0 && data.every(isRecord)) return renderRecords(out, data, nowSeconds);
  return renderBlock(out, data, { nowSeconds }).join('\n');
}

export interface GatewayResultOptions {
  /** The command that was run: it picks the view. */
  command: string;
  /** The `user_tz` the command was given: times are shown in it. */
  zone?: string;
  /** Used for ages when the envelope has no `meta.generated_at`. */
  nowSeconds: number;
}

/** The whole table output of one gateway answer; the attribution only when `data` carries one. */
export function renderGatewayResult(out: Output, envelope: unknown, opts: GatewayResultOptions): string {
  const body = isRecord(envelope) ? envelope : {};
  const nowSeconds = (isRecord(body.meta) ? isoToEpoch(body.meta.generated_at) : undefined) ?? opts.nowSeconds;
  const data = body.data;
  const view = VIEWS[opts.command];
  let text = view?.(data, { out, nowSeconds, zone: opts.zone ?? 'UTC' });
  if (text === undefined) {
    if (view) out.debug(`${opts.command}: the data is not in the shape this view reads; shown generically`);
    text = renderGenericData(out, data, nowSeconds);
  }
  if (isRecord(data) && isRecord(data.meta) && typeof data.meta.source === 'string')
    return withAttribution(out, text, data.meta);
  return text;
}
