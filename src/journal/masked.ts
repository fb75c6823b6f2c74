// An export never carries a key: the output boundary masks every key the run knows and any
// key-shaped text (core/redact.ts, the contract's redaction rule), a record's symbol and
// timeframe included. Imported back into the journal it came from, such a row must find the
// record it was exported from, or the import would add a second record under the masked text.
// So the import knows each stored series (origin, symbol, timeframe) also by how the export
// shows it (written as the export writes it, redacted, read back as the import reads it), and a
// row that shows a stored series masked is taken as that series: the stored key is not changed,
// and nothing is added. Into an empty journal the masked text is what arrives: the export never
// held the key, so no copy can (docs/decisions/2026-11-27-lossless-journal-export.md).
import { exactCsvCell, exactJson, exactTsvCell, readTsvCell } from '../core/exact-text.js';
import { redactText } from '../core/sinks.js';
import { priceSeriesKey, seriesKey, type JournalRecord } from './record.js';
import { csvCells } from './rows.js';

export type ExportFormat = 'csv' | 'tsv' | 'jsonl';

/** A text as an export in `format` shows it and the import reads it back: masked if it holds a key. */
const SHOWN: Record<ExportFormat, (text: string) => string | null> = {
  csv: (text) => csvCells(redactText(exactCsvCell(text)))[0] ?? null,
  tsv: (text) => readTsvCell(redactText(exactTsvCell(text))),
  jsonl: (text) => JSON.parse(redactText(exactJson(text))) as string,
};

/** How an export in `format` shows `text`, as its import reads it back. */
export const shownAs = (format: ExportFormat, text: string): string | null => SHOWN[format](text);

const seriesKeyOf = (kind: 'forecast' | 'price', origin: string | null, symbol: string, tf: string | undefined) =>
  kind === 'price' ? `p\t${priceSeriesKey({ origin, symbol })}` : `f\t${seriesKey({ origin, symbol, tf: tf! })}`;

/** The stored series whose symbol or timeframe an export in one format shows masked. */
export class MaskedSeries {
  /** The masked series as a row shows it, to the stored series it may stand for (two keys can mask alike). */
  private readonly stored = new Map<string, Array<{ symbol: string; tf: string | undefined }>>();
  private readonly shown: (text: string) => string | null;

  constructor(format: ExportFormat) {
    this.shown = (text) => shownAs(format, text);
  }

  /** Whether any series is masked: else resolve changes nothing. */
  get any(): boolean {
    return this.stored.size > 0;
  }

  /** A series of the journal (once each): if an export masks it, it is known by its masked form too. */
  note(kind: 'forecast' | 'price', origin: string | null, symbol: string, tf: string | undefined): void {
    const shownSymbol = this.shown(symbol) ?? symbol;
    const shownTf = tf === undefined ? undefined : (this.shown(tf) ?? tf);
    if (shownSymbol === symbol && shownTf === tf) return;
    const masked = seriesKeyOf(kind, origin, shownSymbol, shownTf);
    const known = this.stored.get(masked);
    if (known) known.push({ symbol, tf });
    else this.stored.set(masked, [{ symbol, tf }]);
  }

  /**
   * A record read from the file, as the stored series it shows masked (if any): of the series
   * that mask alike, the one that holds this record (`isStored`), else the first.
   */
  resolve(r: JournalRecord, isStored: (r: JournalRecord) => boolean): JournalRecord {
    if (this.stored.size === 0) return r;
    const kind = r.kind === 'price' ? 'price' : 'forecast';
    const found = this.stored.get(seriesKeyOf(kind, r.origin, r.symbol, r.kind === 'price' ? undefined : r.tf));
    if (found === undefined) return r;
    const as = (s: { symbol: string; tf: string | undefined }): JournalRecord =>
      r.kind === 'price' ? { ...r, symbol: s.symbol } : { ...r, symbol: s.symbol, tf: s.tf! };
    const candidates = found.map(as);
    return candidates.find(isStored) ?? candidates[0]!;
  }
}
