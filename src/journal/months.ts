// Month files and their months: a journal file per month (`2026-11.jsonl`, UTC), named by the
// forecast's ts or the price's t.

export const MONTH_FILE = /^(\d{4})-(\d{2})\.jsonl$/;

/** Epoch seconds of the first instant of a month file's month. */
export function monthStart(file: string): number {
  const m = MONTH_FILE.exec(file) ?? /^(\d{4})-(\d{2})$/.exec(file);
  if (!m) return 0;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, 1) / 1000;
}

/** Epoch seconds of the first instant of the month after. */
export function monthEnd(file: string): number {
  const m = MONTH_FILE.exec(file) ?? /^(\d{4})-(\d{2})$/.exec(file);
  if (!m) return 0;
  return Date.UTC(Number(m[1]), Number(m[2]), 1) / 1000;
}

/** The month before a month file's, as YYYY-MM. */
export function previousMonth(file: string): string {
  const start = monthStart(file);
  return new Date((start - 86_400) * 1000).toISOString().slice(0, 7);
}
