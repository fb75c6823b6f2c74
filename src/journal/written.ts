// A record as the journal's files hold it. Every line passes the output boundary's redactor
// on its way to a month file (journal-files.ts, appendLines), so a record whose text holds a
// key (a timeframe `tf0-mfa_ag_...` sent by a hostile server) is written with the key masked.
// The index and the "not yet recorded?" checks must know that record by the same masked text:
// an index keyed by the raw text would be a file of the journal holding the key, and a series
// known by two texts would be recorded twice (once per run, after every rebuild of the index).
// So the store keys, queries and indexes records by their written text, from here.
import { redactText } from '../core/sinks.js';
import type { JournalRecord } from './record.js';

/** A text as a line's JSON string once redacted, read back: the text the file holds. */
export function writtenText(text: string): string {
  const line = JSON.stringify(text);
  const safe = redactText(line);
  if (safe === line) return text;
  try {
    const back: unknown = JSON.parse(safe);
    if (typeof back === 'string') return back;
  } catch {
    // The masks hold no JSON-special character; a text that still breaks is not kept.
  }
  return '<redacted>';
}

/** A record's line (recordLine's) as written, read back: the record the file holds. */
export function writtenRecord(line: string, record: JournalRecord): JournalRecord {
  const safe = redactText(line);
  if (safe === line) return record;
  try {
    return JSON.parse(safe) as JournalRecord;
  } catch {
    // As writtenText: the key fields masked one by one, whatever else the line held.
    return { ...record, origin: record.origin && writtenText(record.origin), symbol: writtenText(record.symbol) };
  }
}

/**
 * The written text of the few texts a transaction keys by (origins, symbols, timeframes),
 * each redacted once: an import asks for the same series a million times. One per transaction
 * (the keys a run holds are the redactor's, which differ between runs).
 */
export class WrittenKeys {
  private readonly seen = new Map<string, string>();

  text(text: string): string {
    let out = this.seen.get(text);
    if (out === undefined) {
      out = writtenText(text);
      // Series are few; a file of a million different texts must not grow this without bound.
      if (this.seen.size >= MAX_SEEN) this.seen.clear();
      this.seen.set(text, out);
    }
    return out;
  }

  /** `r` with its origin, symbol and timeframe as written; `r` itself when none changes. */
  of<T extends { origin: string | null; symbol: string; tf?: string }>(r: T): T {
    const origin = r.origin === null ? null : this.text(r.origin);
    const symbol = this.text(r.symbol);
    const tf = r.tf === undefined ? undefined : this.text(r.tf);
    if (origin === r.origin && symbol === r.symbol && tf === r.tf) return r;
    return { ...r, origin, symbol, ...(tf !== undefined && { tf }) } as T;
  }
}

const MAX_SEEN = 10_000;
