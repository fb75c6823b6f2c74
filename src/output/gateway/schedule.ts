// `calendar` and `events`: times, in the zone the user named (`calendar SYMBOL Europe/Madrid`)
// or in UTC. A session's hours are sent in the exchange's zone; they are shown in the user's,
// with the exchange's own hours beside them.
import { z } from 'zod';
import { DASH, formatAge, formatClock, formatZoned, isoToEpoch, zonedParts } from '../format.js';
import type { Output } from '../io.js';
import { marketStatePaint } from '../paint.js';
import { clean } from '../sanitize.js';
import { renderTable, textWidth, wrapIndented, type Cell, type Column } from '../table.js';
import { heading, otherFields, readAs, sections, symbolText, when } from './shared.js';
import type { GatewayView, ViewContext } from './shared.js';

const optionalText = z.string().nullish();

const Session = z
  .object({ name: z.string(), days: optionalText, open: z.string(), close: z.string(), timezone: z.string() })
  .passthrough();

const CalendarData = z
  .object({
    symbol: z.string(),
    asset_class: optionalText,
    timezone: optionalText,
    now: optionalText,
    market_state: optionalText,
    sessions: z.array(Session).nullish(),
    next_open: optionalText,
    next_close: optionalText,
  })
  .passthrough();

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_S = 86_400;
const wallSeconds = (t: number, zone: string) => {
  const p = zonedParts(t, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) / 1000;
};

/** The instant a wall-clock time `HH:MM` occurs in `zone` on the day `dayStart` (a UTC midnight of that date). */
function instantOf(dayStart: number, hhmm: string, zone: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!m) return undefined;
  const guess = dayStart + Number(m[1]) * 3600 + Number(m[2]) * 60;
  // Twice, so that a guess on the far side of a daylight-saving change settles.
  let t = guess - (wallSeconds(guess, zone) - guess);
  t = guess - (wallSeconds(t, zone) - t);
  return t;
}

/** `09:30` in New York as `15:30` in Madrid, with `+1d` when the user's date is the next day. */
function convertClock(
  hhmm: string,
  from: string,
  to: string,
  nowSeconds: number,
): { text: string; shift: number } | undefined {
  try {
    const today = zonedParts(nowSeconds, from);
    const dayStart = Date.UTC(today.year, today.month - 1, today.day) / 1000;
    const t = instantOf(dayStart, hhmm, from);
    if (t === undefined) return undefined;
    const p = zonedParts(t, to);
    const shift = Math.round((Date.UTC(p.year, p.month - 1, p.day) / 1000 - dayStart) / DAY_S);
    return { text: formatClock(t, to), shift };
  } catch {
    // A zone the runtime does not know: the hours are shown as sent.
    return undefined;
  }
}

/** `02:00 +1d`: a close on a later day than its open says so. */
const clockText = (c: { text: string; shift: number }, openShift: number) => {
  const days = c.shift - openShift;
  return days ? `${c.text} ${days > 0 ? '+' : ''}${days}d` : c.text;
};

const shiftDay = (name: string, shift: number) => {
  const i = DAY_NAMES.indexOf(name);
  return i < 0 ? name : DAY_NAMES[(((i + shift) % 7) + 7) % 7]!;
};

/** `Mon-Fri` moved by a day shift; `Sun 22:00 - Fri 22:00` with each time converted; anything else as sent. */
function convertDays(days: string, from: string, to: string, openShift: number, nowSeconds: number): string {
  if (/^[A-Z][a-z]{2}(\s*-\s*[A-Z][a-z]{2})?$/.test(days))
    return days.replace(/[A-Z][a-z]{2}/g, (d) => shiftDay(d, openShift));
  return days.replace(/\b([A-Z][a-z]{2}) (\d{1,2}:\d{2})\b/g, (whole, day: string, hhmm: string) => {
    const c = convertClock(hhmm, from, to, nowSeconds);
    return c ? `${shiftDay(day, c.shift)} ${c.text}` : whole;
  });
}

function sessionTable(ctx: ViewContext, sessions: ReadonlyArray<z.infer<typeof Session>>): string {
  const { zone, nowSeconds } = ctx;
  const converted = sessions.some((s) => s.timezone !== zone);
  const columns: Column[] = [
    { header: 'Session' },
    { header: 'Days', maxWidth: 24 },
    { header: 'Opens' },
    { header: 'Closes' },
  ];
  if (converted) columns.push({ header: 'Exchange hours', priority: 2 });
  const rows = sessions.map((s): Cell[] => {
    const open = convertClock(s.open, s.timezone, zone, nowSeconds);
    const close = convertClock(s.close, s.timezone, zone, nowSeconds);
    // A close at or before the open falls on the next day, as the exchange's hours say.
    const row: Cell[] = [
      clean(s.name).replace(/_/g, ' '),
      s.days ? convertDays(s.days, s.timezone, zone, open?.shift ?? 0, nowSeconds) : '',
      open?.text ?? `${s.open} ${s.timezone}`,
      close ? clockText(close, open?.shift ?? 0) : `${s.close} ${s.timezone}`,
    ];
    if (converted) row.push(`${s.open}–${s.close} ${s.timezone}`);
    return row;
  });
  return renderTable(ctx.out, columns, rows);
}

export const calendarView: GatewayView = (raw, ctx) => {
  const data = readAs(CalendarData, raw);
  if (!data) return undefined;
  const { out } = ctx;
  const label = (k: string) => out.c.dim(k.padEnd(10));
  // After a long zone name (America/Argentina/Buenos_Aires) the age goes on a line of its own.
  const width = textWidth(out);
  const lines: string[] = [];
  if (data.now) lines.push(`${label('Now')}  ${when(ctx, data.now).replace(/ \(.*\)$/, '')}`);
  if (data.market_state)
    lines.push(`${label('Market')}  ${(marketStatePaint(out, data.market_state) ?? String)(clean(data.market_state))}`);
  if (data.next_open !== undefined)
    lines.push(`${label('Next open')}  ${data.next_open ? wrapIndented(when(ctx, data.next_open), width, 12) : DASH}`);
  if (data.next_close !== undefined)
    lines.push(
      `${label('Next close')}  ${data.next_close ? wrapIndented(when(ctx, data.next_close), width, 12) : DASH}`,
    );
  return sections(
    heading(ctx, symbolText(data.symbol), data.asset_class ?? undefined, `times in ${ctx.zone}`),
    lines,
    data.sessions?.length ? sessionTable(ctx, data.sessions) : undefined,
    otherFields(ctx, data, [
      'symbol',
      'asset_class',
      'timezone',
      'now',
      'market_state',
      'sessions',
      'next_open',
      'next_close',
    ]),
  );
};

const EventsData = z
  .object({
    kind: optionalText,
    symbol: optionalText,
    days: z.number().nullish(),
    from: optionalText,
    count: z.number().nullish(),
    events: z.array(
      z
        .object({
          date: z.string(),
          kind: optionalText,
          title: z.string(),
          symbol: optionalText,
          impact: optionalText,
        })
        .passthrough(),
    ),
  })
  .passthrough();

const impactPaint = (out: Output, impact: string | null | undefined) =>
  impact === 'high' ? out.c.red : impact === 'medium' ? out.c.yellow : impact === 'low' ? out.c.dim : undefined;

export const eventsView: GatewayView = (raw, ctx) => {
  const data = readAs(EventsData, raw);
  if (!data) return undefined;
  const { out } = ctx;
  const n = data.events.length;
  const span =
    data.days != null
      ? `${data.days} day${data.days === 1 ? '' : 's'}${data.from ? ` from ${when(ctx, data.from).slice(0, 10)}` : ''}`
      : undefined;
  const table =
    n === 0
      ? 'No events in this window.'
      : renderTable(
          out,
          [
            { header: 'When' },
            { header: 'Event', maxWidth: 28 },
            { header: 'Impact', priority: 1 },
            { header: 'Starts', priority: 2 },
            { header: 'Symbol', priority: 3, identity: true },
            { header: 'Kind', priority: 4 },
          ],
          data.events.map((e): Cell[] => [
            isoToEpoch(e.date) === undefined ? clean(e.date) : formatZoned(isoToEpoch(e.date), ctx.zone),
            e.title,
            { text: e.impact ?? '', paint: impactPaint(out, e.impact) },
            formatAge(isoToEpoch(e.date), ctx.nowSeconds),
            e.symbol ? symbolText(e.symbol) : '',
            e.kind ?? '',
          ]),
        );
  return sections(
    heading(
      ctx,
      `Events${data.kind ? ` (${data.kind})` : ''}`,
      data.symbol ? symbolText(data.symbol) : undefined,
      span,
      `${n} event${n === 1 ? '' : 's'}`,
    ),
    table,
    otherFields(ctx, data, ['kind', 'symbol', 'days', 'from', 'count', 'events']),
  );
};
