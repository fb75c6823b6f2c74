// Trading sessions for the gateway's `calendar` command. Crypto never closes; FX and gold trade
// from Sunday evening to Friday evening (UTC); US stocks and indices follow New York hours, so
// daylight saving is taken from the time-zone database rather than hard-coded.
import { wallClockParts } from '../core/instant.js';
import type { AssetClass } from './catalog.js';

const NEW_YORK = 'America/New_York';
const STEP_S = 900;
const SCAN_LIMIT_S = 9 * 86_400;

export { isValidTimeZone } from '../core/domain.js';

const ISO_FIELDS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'longOffset',
};

const partsIn = (epochS: number, tz: string): Record<string, string> => wallClockParts(epochS, tz, ISO_FIELDS);

/** ISO 8601 in the given zone with its offset, e.g. `2025-06-02T15:30:00+02:00`. */
function isoInZone(epochS: number, tz: string): string {
  const p = partsIn(epochS, tz);
  const offset = (p.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
  const iso = `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
  return offset === '+00:00' ? `${iso}Z` : `${iso}${offset}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function isOpen(assetClass: AssetClass, t: number): boolean {
  if (assetClass === 'crypto') return true;
  if (assetClass === 'fx' || assetClass === 'metal') {
    const d = new Date(t * 1000);
    const minuteOfWeek = d.getUTCDay() * 1440 + d.getUTCHours() * 60 + d.getUTCMinutes();
    // Closed from Friday 22:00 to Sunday 22:00 UTC.
    return !(minuteOfWeek >= 5 * 1440 + 22 * 60 || minuteOfWeek < 22 * 60);
  }
  const p = partsIn(t, NEW_YORK);
  const day = WEEKDAYS.indexOf(p.weekday ?? 'Sun');
  const minute = Number(p.hour) * 60 + Number(p.minute);
  return day >= 1 && day <= 5 && minute >= 9 * 60 + 30 && minute < 16 * 60;
}

function nextChange(assetClass: AssetClass, t: number, wantOpen: boolean): number | null {
  for (let s = Math.floor(t / STEP_S) * STEP_S + STEP_S; s <= t + SCAN_LIMIT_S; s += STEP_S) {
    if (isOpen(assetClass, s) === wantOpen) return s;
  }
  return null;
}

export interface CalendarInfo {
  market_state: 'open' | 'closed';
  sessions: Array<{ name: string; days: string; open: string; close: string; timezone: string }>;
  next_open: string | null;
  next_close: string | null;
}

export function calendarFor(assetClass: AssetClass, t: number, tz: string): CalendarInfo {
  const open = isOpen(assetClass, t);
  const sessions =
    assetClass === 'crypto'
      ? [{ name: 'continuous', days: 'Mon-Sun', open: '00:00', close: '24:00', timezone: 'UTC' }]
      : assetClass === 'fx' || assetClass === 'metal'
        ? [{ name: 'global', days: 'Sun 22:00 - Fri 22:00', open: '22:00', close: '22:00', timezone: 'UTC' }]
        : [
            { name: 'pre_market', days: 'Mon-Fri', open: '04:00', close: '09:30', timezone: NEW_YORK },
            { name: 'regular', days: 'Mon-Fri', open: '09:30', close: '16:00', timezone: NEW_YORK },
            { name: 'after_hours', days: 'Mon-Fri', open: '16:00', close: '20:00', timezone: NEW_YORK },
          ];
  // A market that never closes has no next open or close.
  const nextOpen = assetClass === 'crypto' || open ? null : nextChange(assetClass, t, true);
  const nextClose = assetClass === 'crypto' ? null : nextChange(assetClass, nextOpen ?? t, false);
  return {
    market_state: open ? 'open' : 'closed',
    sessions,
    next_open: nextOpen === null ? null : isoInZone(nextOpen, tz),
    next_close: nextClose === null ? null : isoInZone(nextClose, tz),
  };
}

export function marketState(assetClass: AssetClass, t: number): 'open' | 'closed' {
  return isOpen(assetClass, t) ? 'open' : 'closed';
}
