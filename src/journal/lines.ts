// Reading the journal's JSON Lines in little memory, and checking every record:
// - files are read in 128 KiB chunks and split on newline bytes; nothing holds a whole file;
// - a line is parsed in full with JSON.parse and checked (checkRecord) against the record of
//   its version; the report reads fcast's own lines faster, straight from their bytes
//   (fast-lines.ts), and hands every other line to the same parse and check;
// - a last line without its newline is a write in progress or cut short by a crash: skipped,
//   and counted (the commands warn; the next writer ends it with a newline first, and from
//   then on it is a damaged line like any other); a line that does not parse or check is
//   counted as damaged and skipped, never fatal. So is a time no date can hold (isEpochSeconds):
//   every reader may show a record's times as ISO 8601.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { ConfigError } from '../core/errors.js';
import { isEpochSeconds as isEpoch } from '../core/values.js';
import {
  type AlertRecord,
  ENGINES_VERSION,
  JOURNAL_VERSION,
  JOURNAL_VERSIONS,
  type ForecastRecord,
  type JournalRecord,
  type PriceRecord,
  type SettlementRecord,
} from './record.js';

/**
 * The bytes read at a time. Small enough that a chunk is still in the processor's cache when its
 * lines are read (larger chunks cost the report more time and memory:
 * docs/decisions/2026-11-27-journal-steps.md), far larger than a record's line as fcast records them.
 */
export const CHUNK = 1 << 17;

/**
 * The longest line read as a line: the buffer grows for a longer one (a server's long text, an
 * import's), up to this. A longer line is nobody's record.
 */
export const MAX_LINE = 1 << 22;

/** What reading a file found wrong, for one warning per command. */
export interface ReadProblems {
  /** Lines that did not parse or did not check (a crash mid-write, an edit by hand). */
  damaged: number;
  /** Lines of a newer journal version than this fcast knows. */
  newer: number;
  /** Files whose last line has no newline: a write cut short by a crash, or one in progress. */
  torn: number;
}

export const noProblems = (): ReadProblems => ({ damaged: 0, newer: 0, torn: 0 });

/**
 * Calls `onLine(buf, start, end)` for every complete line of `path` from byte `from` (the
 * newline excluded); returns the offset just past the last complete line. The buffer is reused:
 * a callback must copy what it keeps. `onTorn` hears of bytes after the last newline. When
 * `pause` (asked after each line) says so, it stops there and returns the offset just past that
 * line: a caller that must yield to the event loop (`journal import`) goes on from it later.
 * `opened` hears the stat of the file as opened (the one read, whatever replaces it later).
 * A line longer than MAX_LINE is handed over as its first bytes alone (cutShort says so).
 */
export function forEachLine(
  path: string,
  from: number,
  onLine: (buf: Buffer, start: number, end: number) => void,
  onTorn?: () => void,
  pause?: () => boolean,
  opened?: (stat: Stats) => void,
): number {
  return readLines(path, { from, until: Number.POSITIVE_INFINITY, midLine: false, onTorn, pause, opened }, onLine);
}

/**
 * forEachLine over one share of a file that two threads read (scan-ahead.ts): the complete
 * lines that *start* at or after `from` and before `until`, the last of them read past `until`
 * to its newline. Shares cut a file anywhere, and every line is one share's: a line starts at
 * `from` when the byte before is a newline, so the read begins one byte early and skips to the
 * first newline. Only a share that reaches the file's end can meet a torn line. Read from `fd`
 * when given (left open): every share then comes from the one file opened, whatever replaces
 * it at `path` meanwhile (a prune's rename).
 */
export function forEachLineBetween(
  path: string,
  fd: number | undefined,
  from: number,
  until: number,
  onLine: (buf: Buffer, start: number, end: number) => void,
  onTorn?: () => void,
): void {
  if (from === 0) readLines(path, { fd, from: 0, until, midLine: false, onTorn }, onLine);
  else readLines(path, { fd, from: from - 1, until, midLine: true, onTorn }, onLine);
}

/**
 * Opens a journal file to read. Non-blocking: a FIFO put in a file's place between its check
 * and this open must not hang the command waiting for a writer; it is refused here instead.
 */
export function openToRead(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new ConfigError(`journal: ${path} is not a regular file`);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** How readLines reads: from where, until which line start, and what it tells besides the lines. */
interface LineRead {
  /** An open descriptor of the file to read, which readLines leaves open; else `path` is opened. */
  fd?: number;
  from: number;
  until: number;
  /** Whether `from` is within a line that is not to be handed over (a share's start). */
  midLine: boolean;
  onTorn?: () => void;
  pause?: () => boolean;
  opened?: (stat: Stats) => void;
}

/**
 * The chunk buffer a read gives back for the next: a thread reads a file's shares one after
 * another, and a fresh buffer for each would be faulted in page by page every time.
 */
let spare: Buffer | undefined;

function readLines(
  path: string,
  { fd: given, from, until, midLine, onTorn, pause, opened }: LineRead,
  onLine: (buf: Buffer, start: number, end: number) => void,
): number {
  const fd = given ?? openToRead(path);
  let buf = spare ?? Buffer.allocUnsafe(CHUNK);
  spare = undefined;
  try {
    if (opened) opened(fstatSync(fd));
    let have = 0;
    let position = from;
    let consumed = from;
    // A line longer than MAX_LINE is nobody's record: skipped up to its newline, and counted by
    // the caller as the damaged line it starts (its first bytes are handed over alone). A share
    // that starts within a line skips it the same way: it is the share's before.
    let skipping = midLine;
    for (;;) {
      const got = readSync(fd, buf, have, buf.length - have, position);
      if (got === 0) break;
      position += got;
      const end = have + got;
      let start = 0;
      for (;;) {
        const nl = buf.indexOf(10, start);
        if (nl < 0 || nl >= end) break;
        if (skipping) skipping = false;
        else onLine(buf, start, nl);
        consumed += nl + 1 - start;
        start = nl + 1;
        if (consumed >= until || pause?.()) return consumed;
      }
      if (start === 0 && end === buf.length && !skipping && buf.length < MAX_LINE) {
        // A line longer than the buffer: twice the room, and read on.
        const larger = Buffer.allocUnsafe(Math.min(MAX_LINE, 2 * buf.length));
        buf.copy(larger, 0, 0, end);
        buf = larger;
        have = end;
        continue;
      }
      if (start === 0 && end === buf.length) {
        if (!skipping) onLine(buf, 0, Math.min(end, 64));
        skipping = true;
        consumed += end;
        have = 0;
        continue;
      }
      buf.copy(buf, 0, start, end);
      have = end - start;
      if (skipping) {
        consumed += have;
        have = 0;
      }
    }
    if (have > 0) onTorn?.();
    return consumed;
  } finally {
    if (given === undefined) closeSync(fd);
    if (buf.length === CHUNK) spare = buf;
  }
}

/** Whether forEachLine handed over only the first bytes of a line longer than MAX_LINE: no newline ends them. */
export const cutShort = (buf: Buffer, end: number): boolean => buf[end] !== 10;

// --- full parsing ------------------------------------------------------------------------------

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);
const isText = (v: unknown): v is string => typeof v === 'string';
const numOrNull = (v: unknown): boolean => v === null || isNum(v);
const textOrNull = (v: unknown): boolean => v === null || isText(v);
const intOrNull = (v: unknown): boolean => v === null || isInt(v);
const epochOrNull = (v: unknown): boolean => v === null || isEpoch(v);

/** Each field of an engine as a record holds it: a number or null, or (`text`) a text or null. */
type EngineShape = Record<string, 'number' | 'text'>;
const IA1: EngineShape = { score: 'number', rsi_score: 'number', ema_score: 'number' };
const IA2: EngineShape = {
  p_long: 'number',
  p_short: 'number',
  p_flat: 'number',
  predicted_change_pct: 'number',
  confidence: 'number',
  label_raw: 'text',
};
const IA3: EngineShape = { label: 'text', policy_version: 'number' };

/** An engine of a forecast line: absent or null (not recorded), or an object of its fields, each of its kind or null. */
function engineOrNull(v: unknown, shape: EngineShape): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v !== 'object' || Array.isArray(v)) return false;
  const e = v as Record<string, unknown>;
  for (const field in shape)
    if (!(shape[field] === 'number' ? numOrNull(e[field]) : textOrNull(e[field]))) return false;
  return true;
}

/** A settlement's ia2: its three probabilities, numbers all. */
const isProbabilities = (v: unknown): boolean =>
  v !== null &&
  typeof v === 'object' &&
  isNum((v as Record<string, unknown>).p_long) &&
  isNum((v as Record<string, unknown>).p_short) &&
  isNum((v as Record<string, unknown>).p_flat);

/**
 * A parsed line as a record, or why not: 'damaged' (not a record of any version), 'newer'
 * (a version this fcast does not know). Unknown extra fields are kept.
 */
export function checkRecord(value: unknown): JournalRecord | AlertRecord | 'damaged' | 'newer' {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'damaged';
  let r = value as Record<string, unknown>;
  if (isInt(r.v) && r.v > JOURNAL_VERSION) return 'newer';
  if (!JOURNAL_VERSIONS.includes(r.v as number) || !isText(r.symbol)) return 'damaged';
  // Version 1 knew no origins: its records read as of an unknown one (null), in the field's place.
  if (r.v === 1) {
    if ('origin' in r) return 'damaged';
    r = { v: r.v, kind: r.kind, origin: null, ...r };
  } else if (!textOrNull(r.origin)) return 'damaged';
  // Versions 1 and 2 knew ia3 alone: what a hand edit added of the other engines is not theirs.
  if ((r.v as number) < ENGINES_VERSION && (r.ia1 !== undefined || r.ia2 !== undefined || r.ia3 !== undefined)) {
    const { ia1: _1, ia2: _2, ia3: _3, ...ia3Only } = r;
    r = ia3Only;
  }
  switch (r.kind) {
    case 'forecast':
      return isText(r.tf) &&
        isEpoch(r.ts) &&
        isInt(r.horizon_min) &&
        isEpoch(r.target_t) &&
        numOrNull(r.anchor_price) &&
        numOrNull(r.target_price) &&
        isText(r.direction) &&
        isNum(r.p_long) &&
        isNum(r.p_short) &&
        isNum(r.p_flat) &&
        textOrNull(r.tier) &&
        intOrNull(r.delay_min) &&
        epochOrNull(r.server_t) &&
        isEpoch(r.recorded_at) &&
        engineOrNull(r.ia1, IA1) &&
        engineOrNull(r.ia2, IA2) &&
        engineOrNull(r.ia3, IA3)
        ? (r as unknown as ForecastRecord)
        : 'damaged';
    case 'price':
      return isEpoch(r.t) && isNum(r.last) && textOrNull(r.tier) && intOrNull(r.delay_min) && isEpoch(r.recorded_at)
        ? (r as unknown as PriceRecord)
        : 'damaged';
    case 'settlement': {
      const base =
        isText(r.tf) &&
        isEpoch(r.ts) &&
        isText(r.direction) &&
        isNum(r.p_long) &&
        isNum(r.p_short) &&
        isNum(r.p_flat) &&
        numOrNull(r.anchor_price) &&
        isEpoch(r.settled_at) &&
        (r.ia2 === undefined || r.ia2 === null || isProbabilities(r.ia2));
      if (!base) return 'damaged';
      if (r.status === 'unsettleable') return isText(r.reason) ? (r as unknown as SettlementRecord) : 'damaged';
      return r.status === 'settled' &&
        isNum(r.settle_price) &&
        isEpoch(r.settle_t) &&
        (r.settle_source === 'candles' || r.settle_source === 'price') &&
        isNum(r.anchor_price)
        ? (r as unknown as SettlementRecord)
        : 'damaged';
    }
    case 'alert':
      return (r.tf === null ? epochOrNull(r.ts) : isText(r.tf) && isEpoch(r.ts)) &&
        isEpoch(r.t) &&
        isText(r.rule) &&
        isText(r.field) &&
        isText(r.op) &&
        (isNum(r.value) || isText(r.value)) &&
        numOrNull(r.threshold) &&
        typeof r.already === 'boolean' &&
        isText(r.text) &&
        isEpoch(r.recorded_at)
        ? (r as unknown as AlertRecord)
        : 'damaged';
    default:
      return 'damaged';
  }
}

/** The bytes of a line as a record, or why not. */
export function parseLine(buf: Buffer, start: number, end: number): JournalRecord | AlertRecord | 'damaged' | 'newer' {
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8', start, end));
  } catch {
    return 'damaged';
  }
  return checkRecord(value);
}

/**
 * Every record of `path` from `from`, parsed in full; returns the offset past the last complete
 * line. `opened` hears the stat of the file read (forEachLine). An alert's line is no record of
 * a forecast: `onAlert` hears it, when given; nothing else does.
 */
export function readRecords(
  path: string,
  from: number,
  onRecord: (r: JournalRecord) => void,
  problems: ReadProblems,
  opened?: (stat: Stats) => void,
  onAlert?: (r: AlertRecord) => void,
): number {
  return forEachLine(
    path,
    from,
    (buf, start, end) => {
      if (end === start) return; // a blank line: nothing, and nothing wrong
      const r = parseLine(buf, start, end);
      if (r === 'damaged') problems.damaged++;
      else if (r === 'newer') problems.newer++;
      else if (r.kind === 'alert') onAlert?.(r);
      else onRecord(r);
    },
    () => problems.torn++,
    undefined,
    opened,
  );
}
