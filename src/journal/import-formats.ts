// Reading an export for `journal import` (import.ts merges what it reads): its format, by its
// first bytes; its header; its rows, CSV (a quoted cell may span lines), TSV (core/tsv.ts's
// escapes) or JSON Lines (the export's objects or the journal's own lines), line by line however
// large the file, yielding to the event loop every few thousand lines so Ctrl-C is heard.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { ConfigError, failureReason, InterruptedError, UsageError } from '../core/errors.js';
import { readTsvCell } from '../core/exact-text.js';
import { tsvCells } from '../core/tsv.js';
import { checkRecord, forEachLine } from './lines.js';
import { rebuildRecord, type JournalRecord } from './record.js';
import { csvCells, opensQuote, recordsOfRow, EXPORT_COLUMNS } from './rows.js';

/** The formats `journal export` writes. */
export type ExportFormat = 'csv' | 'tsv' | 'jsonl';

/** Where the rows read go: each row counted, then skipped (with why) or taken as its records. */
export interface RowSink {
  row(): void;
  skip(line: number, error: string): void;
  take(records: JournalRecord[], line: number): void;
}

/** When to write a batch between lines (`due`), and how (`run`): see forEachTextLine. */
export interface Turn {
  due: () => boolean;
  run: () => Promise<void>;
}

const notAnExport = (path: string, why: string): UsageError =>
  new UsageError(`${path} is not a journal export: ${why}`, {
    hint: "give a file written by 'fcast journal export' (CSV, --format tsv or --format jsonl)",
  });

/** A CSV or TSV header's column names; one without the export's columns is refused. */
function readHeader(cells: string[], label: string): string[] {
  const header = cells.map((h) => h.trim());
  const missing = EXPORT_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length === EXPORT_COLUMNS.length)
    throw notAnExport(label, "its first line is not a header with the export's columns");
  if (missing.length > 0) throw notAnExport(label, `no column ${missing.join(', ')}`);
  return header;
}

/** A row's cells by their column names (the first of a repeated name wins); a missing or empty cell is null. */
function rowOf(header: readonly string[], cells: ReadonlyArray<string | null>): Record<string, string | null> {
  const row: Record<string, string | null> = {};
  header.forEach((name, i) => {
    if (!(name in row)) row[name] = cells[i] ?? null;
  });
  return row;
}

/** Lines read between two yields to the event loop: a few milliseconds' work, so Ctrl-C ends an import at once. */
const LINES_PER_TURN = 4_000;

/**
 * Lets the event loop run (a Ctrl-C's handler among it), then ends the import if it was
 * interrupted: between lines and batches only, so a batch is either written whole or not begun.
 */
export async function yieldTurn(signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (signal?.aborted) throw new InterruptedError();
}

/**
 * Every line of a text file, the last one too when it has no newline, with its number. Every
 * LINES_PER_TURN lines, or sooner once `turn.due()` says a batch is full, it runs `turn.run`
 * (the batch written) and yields to the event loop.
 */
async function forEachTextLine(
  path: string,
  onLine: (text: string, n: number) => void,
  signal: AbortSignal | undefined,
  turn: Turn,
): Promise<void> {
  let n = 0;
  let at = 0;
  for (;;) {
    let lines = 0;
    const end = forEachLine(
      path,
      at,
      (buf, start, stop) => {
        lines++;
        onLine(buf.toString('utf8', start, stop), ++n);
      },
      undefined,
      () => lines >= LINES_PER_TURN || turn.due(),
    );
    if (end === at) break;
    at = end;
    await turn.run();
    await yieldTurn(signal);
  }
  const size = statSync(path).size;
  if (at < size) {
    // Opened as forEachLine opens it: a FIFO swapped in meanwhile is refused, not waited on.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!fstatSync(fd).isFile()) throw new ConfigError(`journal: ${path} is not a regular file`);
      const rest = Buffer.alloc(size - at);
      readSync(fd, rest, 0, rest.length, at);
      onLine(rest.toString('utf8'), ++n);
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * The file's format, by its first bytes (a JSON object; else a header row, with tabs in TSV);
 * a file that cannot be opened as a regular file is a usage error.
 */
export function sniff(path: string): ExportFormat {
  const cannotRead = (err: unknown) => new UsageError(`cannot read ${path}: ${failureReason(err)}`);
  let fd: number;
  try {
    // Checked before opening: opening a FIFO would wait for a writer.
    if (!statSync(path).isFile()) throw new UsageError(`cannot read ${path}: not a regular file`);
    fd = openSync(path, 'r');
  } catch (err) {
    throw err instanceof UsageError ? err : cannotRead(err);
  }
  try {
    const head = Buffer.alloc(64);
    const got = readSync(fd, head, 0, head.length, 0);
    const text = head
      .toString('utf8', 0, got)
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (text.startsWith('{')) return 'jsonl';
    return text.split('\n', 1)[0]!.includes('\t') ? 'tsv' : 'csv';
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the export at `path` (`label` in messages), row by row into `rows`, running `turn`
 * between lines as forEachTextLine does; a file without the export's header is a usage error.
 */
export async function readRows(
  path: string,
  label: string,
  format: ExportFormat,
  nowS: number,
  defaultOrigin: string | null,
  signal: AbortSignal | undefined,
  turn: Turn,
  rows: RowSink,
): Promise<void> {
  if (format === 'jsonl') {
    await forEachTextLine(
      path,
      (text, n) => {
        if (text.trim() === '') return;
        rows.row();
        let value: unknown;
        try {
          value = JSON.parse(text.replace(/^\uFEFF/, ''));
        } catch {
          return rows.skip(n, 'not JSON');
        }
        if (value !== null && typeof value === 'object' && 'kind' in value) {
          const r = checkRecord(value);
          if (typeof r === 'string') return rows.skip(n, `not a journal record (${r})`);
          // An alert of a watch is noted where it fired, never moved to another journal.
          if (r.kind === 'alert') return rows.skip(n, 'an alert, not a forecast: not imported');
          // Written as this fcast writes it: this version, the fields in their order, the
          // outcome recomputed from the prices (a line's own outcome is not trusted).
          const rebuilt = rebuildRecord(r, defaultOrigin);
          return 'error' in rebuilt ? rows.skip(n, rebuilt.error) : rows.take([rebuilt], n);
        }
        const got = recordsOfRow(value, nowS, defaultOrigin);
        return 'error' in got ? rows.skip(n, got.error) : rows.take(got.records, n);
      },
      signal,
      turn,
    );
  } else if (format === 'tsv') {
    // One row a line: TSV escapes the tabs, newlines and backslashes of its cells (core/tsv.ts).
    let header: string[] | undefined;
    await forEachTextLine(
      path,
      (text, n) => {
        const line = text.replace(/\r$/, '');
        if (!header) {
          header = readHeader(tsvCells(line.replace(/^\uFEFF/, '')), label);
          return;
        }
        if (line.trim() === '') return;
        rows.row();
        const got = recordsOfRow(rowOf(header, line.split('\t').map(readTsvCell)), nowS, defaultOrigin);
        if ('error' in got) rows.skip(n, got.error);
        else rows.take(got.records, n);
      },
      signal,
      turn,
    );
  } else {
    let header: string[] | undefined;
    let pending = '';
    let pendingLine = 0;
    // Whether the lines so far leave a quoted cell open, kept line by line: a stray quote must
    // not make each later line rescan all those before it.
    let open = false;
    await forEachTextLine(
      path,
      (text, n) => {
        if (pending === '') pendingLine = n;
        pending = pending === '' ? text : `${pending}\n${text}`;
        if (opensQuote(text)) open = !open;
        if (open) return;
        const line = pending.replace(/\r$/, '');
        pending = '';
        if (!header) {
          header = csvCells(line.replace(/^\uFEFF/, '')).map((h) => (h ?? '').trim());
          const missing = EXPORT_COLUMNS.filter((c) => !header!.includes(c));
          if (missing.length === EXPORT_COLUMNS.length)
            throw notAnExport(label, "its first line is not a header with the export's columns");
          if (missing.length > 0) throw notAnExport(label, `no column ${missing.join(', ')}`);
          return;
        }
        if (line.trim() === '') return;
        rows.row();
        const got = recordsOfRow(rowOf(header, csvCells(line)), nowS, defaultOrigin);
        if ('error' in got) rows.skip(pendingLine, got.error);
        else rows.take(got.records, pendingLine);
      },
      signal,
      turn,
    );
    if (pending !== '') {
      rows.row();
      rows.skip(pendingLine, 'a quoted cell is never closed');
    }
  }
}
