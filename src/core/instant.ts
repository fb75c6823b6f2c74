// An instant as a person types it: the emulator's --clock and the journal's --since, --until
// and --before read it the same way, so the same words name the same second everywhere.

/**
 * An instant as typed: ISO 8601 with a date (`2026-11-24`, `2026-11-24T19:00Z`,
 * `2026-11-24T19:00:00+01:00`), or epoch seconds. A time without a zone is UTC, never the
 * machine's local time: two machines must emulate the same instant for the same words.
 */
export function parseInstant(text: string): number | undefined {
  const t = text.trim();
  if (/^\d{9,11}$/.test(t)) return Number(t) * 1000;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(t);
  if (!m) return undefined;
  const [, date, time = '00:00:00', zone = 'Z'] = m;
  const ms = Date.parse(`${date}T${time}${zone.toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2026-02-30 over to March: a date that does not exist is refused.
  if (new Date(ms + offsetMs(zone)).toISOString().slice(0, 10) !== date) return undefined;
  return ms;
}

function offsetMs(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return (m[1] === '-' ? -1 : 1) * minutes * 60_000;
}

/**
 * Epoch seconds as ISO 8601 in UTC to the second, `2026-11-24T19:00:00Z`: the form of the
 * emulator's `*_at` fields, the exports' `*_iso` columns and the instants fcast quotes back.
 */
export function isoSeconds(epochS: number): string {
  return new Date(epochS * 1000).toISOString().replace('.000Z', 'Z');
}

const zoneFormatters = new WeakMap<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>();

/**
 * The wall clock in `zone` at an instant, as Intl's en-US parts by type (`year`, `hour`,
 * `weekday`, `timeZoneName`, ...): the fields asked for, and the time zone database's daylight
 * saving. Building a formatter costs far more than using one, so there is one per zone and set
 * of fields, made on first use: pass the same `fields` object (a module constant) every time.
 */
export function wallClockParts(
  epochS: number,
  zone: string,
  fields: Intl.DateTimeFormatOptions,
): Record<string, string> {
  const byZone = zoneFormatters.get(fields) ?? new Map<string, Intl.DateTimeFormat>();
  const formatter = byZone.get(zone) ?? new Intl.DateTimeFormat('en-US', { ...fields, timeZone: zone });
  zoneFormatters.set(fields, byZone.set(zone, formatter));
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(new Date(epochS * 1000))) parts[part.type] = part.value;
  return parts;
}
