// The report's fast path: a line written by fcast (record.ts writes every field in a fixed
// order) is read straight from its bytes, fast enough for a report over a million forecasts
// (about two million lines) in well under the 3 s the contract allows:
// - the few fields a report needs are read, numbers parsed the way JSON.parse does
//   (decimal.ts), and the line must end its object (a line cut short never does); lines of
//   this version and of version 2 (ia3-only, which a journal kept before the engines holds in
//   millions) alike; ia2's probabilities, last on a settlement line, only when asked for;
// - any other line (a field out of order, an escape in a string, an exponent, null) is parsed
//   in full with JSON.parse and checked like every line (lines.ts). On the lines fcast writes
//   the two agree value for value (test/unit/journal-lines.test.ts); the fast path does not
//   read past the fields it needs, so a line edited by hand into invalid JSON after them still
//   counts.
import { isEpochSeconds as isEpoch } from '../core/values.js';
import { longDecimal, MAX_EXACT, POW10 } from './decimal.js';
import { forEachLine, forEachLineBetween, parseLine, type ReadProblems } from './lines.js';
import { ia2Probabilities, JOURNAL_VERSION, type Probabilities, type SettlementRecord } from './record.js';

/** What a report needs of a settlement line. */
export interface ScoredLine {
  origin: string | null;
  symbol: string;
  tf: string;
  ts: number;
  status: 'settled' | 'unsettleable';
  direction: string;
  p_long: number;
  p_short: number;
  p_flat: number;
  /** Null only for an unsettleable forecast. */
  anchor_price: number | null;
  /** NaN unless settled. */
  settle_price: number;
  /**
   * ia2's probabilities, when the visitor asks for the engines (ReportVisitor.engines) and the
   * line holds them; else null (a line of version 1 or 2 never does).
   */
  ia2: Probabilities | null;
}

/** The ScoredLine a reader rewrites for each settlement it hands over. */
export const blankScoredLine = (): ScoredLine => ({
  origin: null,
  symbol: '',
  tf: '',
  ts: 0,
  status: 'settled',
  direction: '',
  p_long: 0,
  p_short: 0,
  p_flat: 0,
  anchor_price: 0,
  settle_price: Number.NaN,
  ia2: null,
});

/** A parsed settlement as the report sees it: what the fast path reads of its line, no more. */
export function scoredLine(r: SettlementRecord, engines = false): ScoredLine {
  return {
    origin: r.origin,
    symbol: r.symbol,
    tf: r.tf,
    ts: r.ts,
    status: r.status,
    direction: r.direction,
    p_long: r.p_long,
    p_short: r.p_short,
    p_flat: r.p_flat,
    anchor_price: r.anchor_price,
    settle_price: r.status === 'settled' ? r.settle_price : Number.NaN,
    ia2: engines ? (ia2Probabilities(r) ?? null) : null,
  };
}

/**
 * A file cut into shares of `bytes` (the last runs to the file's end, however far it has grown),
 * which two threads read between them: the lines that start in a share are its own.
 */
export interface Shares {
  bytes: number;
  count: number;
  /**
   * Asked for every share, in order: whether this thread reads it. Before it answers no, the
   * caller does what the other thread's share needs here (scan-ahead.ts replays its calls).
   */
  mine(k: number): boolean;
  /** After this thread has read share k. */
  ended?(k: number): void;
  /**
   * The file, opened once for every thread (scan-ahead.ts): all shares are read from the one
   * file, whatever replaces it at its path meanwhile. Without it, each share opens the path.
   */
  fd?: number;
  /**
   * Added to every series number this thread hands over, so that the two threads' numbers
   * (each counts its own strings) never meet: a visitor keys its series by them.
   */
  seriesBase?: number;
}

export interface ReportVisitor {
  /**
   * `series`: an integer naming (origin, symbol, tf) within this file, the same for every line
   * of that series the fast path reads on one thread (two threads sharing a file number them
   * apart: Shares.seriesBase); -1 when the line was parsed in full (or the file holds too many
   * distinct strings to number them so). `targetT`: the forecast's target_t
   * when the visitor asks for it (ReportVisitor.targets), else NaN.
   */
  forecast(origin: string | null, symbol: string, tf: string, ts: number, series: number, targetT: number): void;
  settlement(s: ScoredLine, series: number): void;
  /** Price observations, for a reader that wants their keys (a report does not). */
  price?(origin: string | null, symbol: string, t: number): void;
  /** The tier and data delay of the forecast just handed to `forecast`, for a reader that wants them (a report's footer). */
  tier?(tier: string | null, delayMin: number | null): void;
  /**
   * Whether settlements should carry ia2's probabilities (ScoredLine.ia2), read from the end of
   * the line (a comparison of the engines wants them; the report does not, and is spared it).
   */
  readonly engines?: boolean;
  /**
   * Whether forecasts should carry their target_t (the comparison's overlapping horizons want
   * it; the report does not, and is spared reading it).
   */
  readonly targets?: boolean;
  /**
   * When given, its first element is raised by each line's length (newline included) as the
   * line is read: how far the scan is through the file, for a reader that sizes its arrays by it
   * (a Float64Array, so that a count past 2^30 is never a new heap number per line).
   */
  readonly bytesRead?: Float64Array;
}

const TIER = Buffer.from('"tier":', 'latin1');
const DELAY = Buffer.from('"delay_min":', 'latin1');

/**
 * A forecast line's tier and delay, from `"tier":` to the end of `"delay_min"`'s value, parsed
 * once per distinct run of bytes: a file holds one or two (every line of a run says `free` and
 * 15), so most lines cost a forward search from the forecast's time and a compare of a few
 * bytes. The search starts after `ts`, where no server text but the escaped direction stands
 * before the tier (a JSON string never holds a bare `"tier":`), and the engines after it are
 * never reached.
 */
class TierReader {
  private raw: Buffer = Buffer.alloc(0);
  tier: string | null = null;
  delay: number | null = null;

  private sameAt(buf: Buffer, at: number): boolean {
    const raw = this.raw;
    for (let i = 0; i < raw.length; i++) if (raw[i] !== buf[at + i]) return false;
    // What follows the delay's value ends it: the next field or the record.
    const next = buf[at + raw.length];
    return next === 44 || next === 125;
  }

  /** Reads the forecast line `buf[from, end)` (from: after its ts): its tier and delay, null when it holds none. */
  read(buf: Buffer, from: number, end: number): void {
    const a = findTier(buf, from, end);
    const d = a < 0 ? -1 : buf.indexOf(DELAY, a);
    if (d < 0 || d >= end) {
      this.tier = null;
      this.delay = null;
      this.raw = Buffer.alloc(0);
      return;
    }
    if (this.raw.length > 0 && this.sameAt(buf, a)) return;
    let e = d + DELAY.length;
    while (e < end && buf[e] !== 44 && buf[e] !== 125) e++;
    this.raw = Buffer.from(buf.subarray(a, e));
    try {
      const o = JSON.parse(`{${this.raw.toString('utf8')}}`) as { tier?: unknown; delay_min?: unknown };
      this.tier = typeof o.tier === 'string' ? o.tier : null;
      this.delay = typeof o.delay_min === 'number' ? o.delay_min : null;
    } catch {
      this.tier = null;
      this.delay = null;
    }
  }
}

/**
 * Where `"tier":` starts in buf[from, end), or −1: Horspool's search, which looks at about one
 * byte in five of the line here, where Buffer.indexOf's call into C++ cost more than the
 * search itself, once per forecast (docs/decisions/2026-12-03-journal-read-ahead.md).
 */
function findTier(buf: Buffer, from: number, end: number): number {
  const last = TIER.length - 1;
  for (let i = from + last; i < end; ) {
    const c = buf[i]!;
    if (c === 58) {
      let k = last - 1;
      while (k >= 0 && buf[i - last + k] === TIER[k]) k--;
      if (k < 0) return i - last;
    }
    i += TIER_SHIFT[c]!;
  }
  return -1;
}
/** Horspool's shifts for `"tier":`: how far the last byte of a window lets it move. */
const TIER_SHIFT = (() => {
  const shift = new Uint8Array(256).fill(TIER.length);
  for (let k = 0; k < TIER.length - 1; k++) shift[TIER[k]!] = TIER.length - 1 - k;
  return shift;
})();

/** A literal of a line: its bytes, and the same as little-endian 32-bit words, compared four bytes at a time. */
interface Literal {
  bytes: Buffer;
  words: Int32Array;
}
const bytes = (s: string): Literal => literalOf(Buffer.from(s, 'latin1'));
function literalOf(b: Buffer): Literal {
  const words = new Int32Array(b.length >> 2);
  for (let k = 0; k < words.length; k++) words[k] = b.readInt32LE(4 * k);
  return { bytes: b, words };
}
/**
 * The versions whose lines the fast path reads: 2 (ia3-only, from before the journal kept every
 * engine) and this one, whose lines are version 2's fields with the engines after them. A
 * version is one digit, so the kind's first letter is the line's sixteenth byte either way.
 */
const FAST_VERSIONS = [2, JOURNAL_VERSION] as const;
const heads = (kind: string): Literal[] => FAST_VERSIONS.map((v) => bytes(`{"v":${v},"kind":"${kind}","origin":`));
const FORECAST_HEADS = heads('forecast');
const SETTLEMENT_HEADS = heads('settlement');
const PRICE_HEADS = heads('price');
/** The head of a line's version (its sixth byte, the digit), or undefined when the fast path does not read it. */
const headOf = (list: Literal[], digit: number): Literal | undefined =>
  digit === 48 + JOURNAL_VERSION ? list[1] : digit === 50 ? list[0] : undefined;
const IA2_HEAD = bytes(',"ia2":');
const IA2_NULL_END = bytes(',"ia2":null}');
const IA3_NULL_END = bytes(',"ia3":null}');
const IA2_P_LONG = bytes('{"p_long":');

/**
 * Whether the line's last bytes end a record of its version, as a line cut short by a crash
 * never does. A version 2 record is flat: only its last byte is a '}'. A version 3 record ends
 * with its last engine (a forecast's ia3, a settlement's ia2): `}}` (that object's end, then
 * the record's: no other two braces meet in a line) or that engine's `,"iaN":null}`.
 */
function endsRecord(buf: Buffer, end: number, version: number, nullEnd: Literal): boolean {
  if (buf[end - 1] !== 125) return false;
  if (version === 50 || buf[end - 2] === 125) return true;
  const n = nullEnd.bytes.length;
  return end - n >= 0 && sameBytes(nullEnd.bytes, buf, end - n, end);
}
const SYMBOL = bytes(',"symbol":"');
const NULL = bytes('null');
const QUOTE = bytes('"');
const T = bytes(',"t":');
const TF = bytes(',"tf":"');
const TS = bytes(',"ts":');
const HORIZON = bytes(',"horizon_min":');
const TARGET_T = bytes(',"target_t":');
const DIRECTION = bytes(',"direction":"');
const P_LONG = bytes(',"p_long":');
const P_SHORT = bytes(',"p_short":');
const P_FLAT = bytes(',"p_flat":');
const ANCHOR = bytes(',"anchor_price":');
const STATUS = bytes(',"status":"');
const SETTLE_PRICE = bytes(',"settle_price":');
const SETTLED = bytes('settled"');
const UNSETTLEABLE = bytes('unsettleable"');

/** The fields text() reads, for its string of the line before. */
const ORIGIN_SLOT = 0;
const SYMBOL_SLOT = 1;
const TF_SLOT = 2;
const DIRECTION_SLOT = 3;

/**
 * A cursor over one line's bytes. Every read either matches exactly what record.ts writes or
 * sets `ok` to false, and the caller parses the line in full instead.
 */
class LineCursor {
  buf: Buffer = Buffer.alloc(0);
  pos = 0;
  end = 0;
  ok = true;
  /** Numbers read through a string (Number()) rather than from their digits. */
  slowNumbers = 0;
  private readonly strings = new Map<number, Known>();
  private readonly last: Array<Known | undefined> = Array(4).fill(undefined);
  /** How many distinct strings text() has numbered (ids from 1; 0 is an origin's null). */
  private known = 0;
  /** The id of the string text() or textOrNull() read last. */
  textId = 0;

  /**
   * The head of the last forecast or settlement line read key by key: its bytes from the
   * origin's value up to and including `,"ts":` (offsets in buf: the chunk a line is read from
   * is reused, so a line starting at or before headLine's start ends it), and what they held. A
   * settlement follows its forecast, whose head it repeats byte for byte: one compare stands for
   * the origin, symbol and timeframe read one by one.
   */
  headLine = -1;
  headFrom = 0;
  headLength = 0;
  headOrigin: string | null = null;
  headSymbol = '';
  headTf = '';
  headSeries = -1;

  /** Whether the bytes at pos are the last head's; if so, pos moves past them. */
  sameHead(): boolean {
    const n = this.headLength;
    const pos = this.pos;
    if (n === 0 || pos + n > this.end) return false;
    const { view } = this;
    const from = this.headFrom;
    let i = 0;
    for (; i + 4 <= n; i += 4) if (view.getInt32(pos + i, true) !== view.getInt32(from + i, true)) return false;
    const { buf } = this;
    for (; i < n; i++) if (buf[pos + i] !== buf[from + i]) return false;
    this.pos = pos + n;
    return true;
  }

  /** buf's bytes, for literal()'s words. */
  view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

  reset(buf: Buffer, start: number, end: number): void {
    if (buf !== this.buf) {
      this.buf = buf;
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
    }
    this.pos = start;
    this.end = end;
    this.ok = true;
  }

  /**
   * The bytes of `lit` next, or not ok. Four bytes at a time through a DataView (one load and one
   * compare where a byte loop does four), the last few byte by byte.
   */
  literal(lit: Literal): void {
    const { pos } = this;
    if (pos + lit.bytes.length <= this.end && this.same(lit, pos)) this.pos = pos + lit.bytes.length;
    else this.ok = false;
  }

  /** Whether the bytes at `pos` (the caller knows they are in the line) are those of `lit`. */
  private same(lit: Literal, pos: number): boolean {
    const { view } = this;
    const words = lit.words;
    let i = 0;
    for (let k = 0; k < words.length; k++, i += 4) if (view.getInt32(pos + i, true) !== words[k]) return false;
    const { buf } = this;
    const raw = lit.bytes;
    for (; i < raw.length; i++) if (buf[pos + i] !== raw[i]) return false;
    return true;
  }

  /** null, or a plain string (the origin). */
  textOrNull(): string | null {
    if (this.buf[this.pos] === 110) {
      this.literal(NULL);
      this.textId = 0;
      return null;
    }
    this.literal(QUOTE);
    return this.ok ? this.text(ORIGIN_SLOT) : '';
  }

  /**
   * A plain ASCII string up to its closing quote (no escapes), interned: symbols and timeframes
   * repeat. `slot` names the field: the string the field held last is tried first, byte for
   * byte (an origin, a timeframe, a direction is most often the one of the line before), and
   * only on a difference is the string hashed and looked up.
   */
  text(slot: number): string {
    const { buf, end } = this;
    const start = this.pos;
    const last = this.last[slot];
    if (last !== undefined) {
      const n = last.raw.bytes.length;
      if (start + n < end && buf[start + n] === 34 && this.same(last.raw, start)) {
        this.pos = start + n + 1;
        this.textId = last.id;
        return last.text;
      }
    }
    let hash = 0;
    let i = start;
    for (; i < end; i++) {
      const c = buf[i]!;
      if (c === 34) break;
      if (c === 92 || c < 32 || c > 126) {
        this.ok = false;
        return '';
      }
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    if (i >= end) {
      this.ok = false;
      return '';
    }
    this.pos = i + 1;
    let known = this.strings.get(hash);
    if (known === undefined || !sameBytes(known.raw.bytes, buf, start, i)) {
      known = {
        text: internalized(buf.toString('latin1', start, i)),
        raw: literalOf(Buffer.from(buf.subarray(start, i))),
        id: ++this.known,
      };
      this.strings.set(hash, known);
    }
    this.last[slot] = known;
    this.textId = known.id;
    return known.text;
  }

  /**
   * A JSON number followed by ',' or '}'. Without an exponent and up to 17 significant digits
   * (every price and probability JSON.stringify writes in plain form) it is computed from its
   * digits, correctly rounded as JSON.parse's is (Clinger's fast path below 2^53, longDecimal
   * past it); the rest (an exponent: 1e-7, 1e+21; the rare long decimal longDecimal cannot
   * settle) is handed to Number(), which reads it as JSON.parse does. Anything else (null, a
   * leading zero, a bare '-') is not ours to judge. The number is left in `value`; false when
   * it is not ours (and `ok` is false).
   */
  number(): boolean {
    const { buf, end } = this;
    const start = this.pos;
    let i = start;
    let c = i < end ? buf[i]! : -1;
    let negative = false;
    if (c === 45) {
      negative = true;
      c = ++i < end ? buf[i]! : -1;
    }
    // The significant digits (from the first that is not zero: 0.00123 has three): the first
    // eight in hi, the next nine in lo, each an exact integer; digits() reads them four at a time.
    this.hi = 0;
    this.lo = 0;
    this.loDigits = 0;
    this.significant = 0;
    if (c === 48) {
      c = ++i < end ? buf[i]! : -1;
      // A leading zero is not JSON.
      if (c >= 48 && c <= 57) return this.notOurs();
    } else if (c >= 49 && c <= 57) {
      i = this.digits(i);
      c = i < end ? buf[i]! : -1;
    } else return this.notOurs();
    let decimals = 0;
    if (c === 46) {
      const from = ++i;
      // Zeros before the first significant digit (0.00123) only scale the number.
      if (this.significant === 0) while (i < end && buf[i] === 48) i++;
      i = this.digits(i);
      c = i < end ? buf[i]! : -1;
      decimals = i - from;
      if (decimals === 0) return this.notOurs();
    }
    let exponent = false;
    if (c === 101 || c === 69) {
      exponent = true;
      c = ++i < end ? buf[i]! : -1;
      if (c === 43 || c === 45) c = ++i < end ? buf[i]! : -1;
      if (!(c >= 48 && c <= 57)) return this.notOurs();
      do c = ++i < end ? buf[i]! : -1;
      while (c >= 48 && c <= 57);
    }
    if (c !== 44 && c !== 125) return this.notOurs();
    this.pos = i;
    const { significant, hi, lo, loDigits } = this;
    if (exponent || significant > 17 || decimals > 22) return this.slow(start, i);
    // hi·10^loDigits = hi·5^loDigits·2^loDigits, below 10^8·5^9 < 2^53 times a power of two: exact.
    const big = loDigits > 0 ? hi * POW10[loDigits]! : hi;
    const mantissa = big + lo;
    let value: number;
    if (mantissa < MAX_EXACT) {
      // Clinger's fast path: an exact integer over an exact power of ten, rounded once.
      value = decimals > 0 ? mantissa / POW10[decimals]! : mantissa;
    } else {
      // 16-17 significant digits past 2^53 (a long decimal).
      value = longDecimal(big, lo, decimals);
      if (Number.isNaN(value)) return this.slow(start, i);
    }
    this.value = negative ? -value : value;
    return true;
  }

  /**
   * The number number() read last. Handed over in a field (a double, from the start: written in
   * place) rather than returned: number() is too large to be inlined, and a double returned from
   * a call is a new heap object (the garbage it made: docs/decisions/2026-11-27-journal-steps.md).
   */
  value = Number.NaN;

  /** number()'s digits so far: the first eight significant ones, the next nine, their counts. */
  private hi = 0;
  private lo = 0;
  private loDigits = 0;
  private significant = 0;

  /**
   * Reads the run of digits at `from` into hi and lo (past the 17th they are only counted: the
   * number is then read by Number()); returns the index after the run. Four digits at a time
   * while four are there: one little-endian load, one check that each byte is '0'-'9' (its high
   * nibble 3, and still 3 with 6 added), their value by two multiply-adds of byte pairs; the
   * last few one by one.
   */
  private digits(from: number): number {
    const { buf, end, view } = this;
    let i = from;
    let { hi, lo, loDigits, significant } = this;
    while (i + 4 <= end) {
      const v = view.getInt32(i, true);
      if ((((v & 0xf0f0f0f0) ^ 0x30303030) | (((v + 0x06060606) & 0xf0f0f0f0) ^ 0x30303030)) !== 0) break;
      // Bytes d0 (the first digit) .. d3, low to high: (10·d0 + d1) in byte 0, (10·d2 + d3) in byte 2.
      const pairs = ((v - 0x30303030) * 10 + ((v - 0x30303030) >>> 8)) & 0x00ff00ff;
      const four = (pairs & 0xff) * 100 + (pairs >>> 16);
      if (significant <= 4) hi = hi * 10_000 + four;
      else if (significant >= 8) {
        // Digits past the 17th are counted only (a Smi lo, below 10^9, stays one).
        if (significant <= 13) {
          lo = lo * 10_000 + four;
          loDigits += 4;
        }
      } else {
        // Straddles the eighth digit: the first 8 − significant to hi, the rest begin lo.
        const rest = significant - 4;
        const head = Math.floor(four / POW10[rest]!);
        hi = hi * POW10[4 - rest]! + head;
        lo = four - head * POW10[rest]!;
        loDigits = rest;
      }
      significant += 4;
      i += 4;
    }
    for (; i < end; i++) {
      const c = buf[i]!;
      if (c < 48 || c > 57) break;
      if (significant < 8) hi = hi * 10 + (c - 48);
      else if (significant < 17) {
        lo = lo * 10 + (c - 48);
        loDigits++;
      }
      significant++;
    }
    this.hi = hi;
    this.lo = lo;
    this.loDigits = loDigits;
    this.significant = significant;
    return i;
  }

  /** Not a number as fcast writes one (null, a leading zero, a bare '-'): the line is parsed in full. */
  private notOurs(): false {
    this.ok = false;
    return false;
  }

  /** A number read through a string, as JSON.parse reads it: counted (a test holds the varied journal's to none). */
  private slow(start: number, end: number): boolean {
    this.slowNumbers++;
    this.value = Number(this.buf.toString('latin1', start, end));
    // 1e400 reads as Infinity, which no record holds: the full parse counts the line damaged.
    return Number.isFinite(this.value) || this.notOurs();
  }
}

/** A distinct string of a file: its text, its bytes, its number. */
interface Known {
  text: string;
  raw: Literal;
  id: number;
}

/** Fewer distinct strings than this: a series' number, (origin · N + symbol) · N + tf, stays a small integer. */
const IDS = 1024;

/**
 * The string as V8 keeps a property name (internalized): compared with another such string, and
 * with a literal such as 'long' (score.ts's calls), by identity, where a string made from bytes
 * is compared character by character. Once per distinct string of a file.
 */
const internalized = (text: string): string => Object.keys({ [text]: 0 })[0] ?? text;

function sameBytes(raw: Buffer, buf: Buffer, start: number, end: number): boolean {
  if (raw.length !== end - start) return false;
  for (let i = 0; i < raw.length; i++) if (raw[i] !== buf[start + i]) return false;
  return true;
}

/**
 * Reads `path` for a report: each forecast's key and each settlement's scored fields (and each
 * price's key, when asked), through the fast path where the line is fcast's own, else in full.
 * The ScoredLine handed to the visitor is reused for the next line: copy what you keep.
 */
export function scanForReport(
  path: string,
  visitor: ReportVisitor,
  problems: ReadProblems,
  /**
   * Counts the lines the fast path left to JSON.parse (a test holds fcast's own lines to none),
   * and the numbers it read through a string (Number()) rather than from their digits.
   */
  stats?: { parsedInFull: number; slowNumbers?: number },
  /** The file's shares, when two threads read it (scan-ahead.ts): else the whole file here. */
  shares?: Shares,
): void {
  const c = new LineCursor();
  const tiers = new TierReader();
  const scored = blankScoredLine();
  const engines = visitor.engines === true;
  const targets = visitor.targets === true;
  const bytesRead = visitor.bytesRead;
  /** What ScoredLine.ia2 points at when a line holds ia2's probabilities: one object, rewritten per line. */
  const ia2: Probabilities = { p_long: 0, p_short: 0, p_flat: 0 };
  /** `<first>…,"p_short":…,"p_flat":…` into `into`: the three probabilities, spelled alike in a settlement and its ia2 field. */
  const probabilities = (into: Probabilities, first: Literal): void => {
    c.literal(first);
    c.number();
    into.p_long = c.value;
    c.literal(P_SHORT);
    c.number();
    into.p_short = c.value;
    c.literal(P_FLAT);
    c.number();
    into.p_flat = c.value;
  };
  /**
   * ia2's probabilities from a settlement line's end (they are its last field): `,"ia2":null}`,
   * or `,"ia2":{"p_long":…,"p_short":…,"p_flat":…}}`, found from the line's last '{' (the
   * object holds none, and nothing after the field does); false when the end is not so.
   */
  const readIa2 = (buf: Buffer, end: number): boolean => {
    const nullAt = end - IA2_NULL_END.bytes.length;
    if (buf[end - 2] === 108) {
      c.pos = nullAt;
      c.literal(IA2_NULL_END);
      return c.ok;
    }
    let brace = end - 2;
    const floor = c.pos;
    while (brace > floor && buf[brace] !== 123) brace--;
    c.pos = brace - IA2_HEAD.bytes.length;
    if (c.pos < floor) return false;
    c.literal(IA2_HEAD);
    probabilities(ia2, IA2_P_LONG);
    if (!c.ok || c.pos !== end - 2 || buf[end - 2] !== 125) return false;
    scored.ia2 = ia2;
    return true;
  };
  /** Origin, symbol, timeframe and `,"ts":` of a forecast or settlement line, through the last head when they repeat it. */
  const head = (start: number, repeats: boolean): boolean => {
    if (repeats && c.sameHead()) return true;
    const from = c.pos;
    const origin = c.textOrNull();
    const originId = c.textId;
    c.literal(SYMBOL);
    const symbol = c.text(SYMBOL_SLOT);
    const symbolId = c.textId;
    c.literal(TF);
    const tf = c.text(TF_SLOT);
    const tfId = c.textId;
    c.literal(TS);
    if (!c.ok) return false;
    c.headSeries =
      originId < IDS && symbolId < IDS && tfId < IDS ? seriesBase + (originId * IDS + symbolId) * IDS + tfId : -1;
    c.headLine = start;
    c.headFrom = from;
    c.headLength = c.pos - from;
    c.headOrigin = origin;
    c.headSymbol = symbol;
    c.headTf = tf;
    return true;
  };
  const fast = (buf: Buffer, start: number, end: number): boolean => {
    c.reset(buf, start, end);
    const version = buf[start + 5]!;
    if (buf[start + 15] === 102) {
      const lit = headOf(FORECAST_HEADS, version);
      if (lit === undefined) return false;
      c.literal(lit);
      // A forecast seldom repeats the head before it (a settlement, of the series before): not tried.
      if (!c.ok || !head(start, false)) return false;
      c.number();
      const ts = c.value;
      if (!c.ok || !isEpoch(ts) || !endsRecord(buf, end, version, IA3_NULL_END)) return false;
      let targetT = Number.NaN;
      if (targets) {
        // fcast writes horizon_min, then target_t; a line with target_t first is read too.
        const at = c.pos;
        c.literal(TARGET_T);
        if (!c.ok) {
          c.pos = at;
          c.ok = true;
          c.literal(HORIZON);
          c.number();
          c.literal(TARGET_T);
        }
        c.number();
        targetT = c.value;
        if (!c.ok || !isEpoch(targetT)) return false;
        c.pos = at;
      }
      visitor.forecast(c.headOrigin, c.headSymbol, c.headTf, ts, c.headSeries, targetT);
      if (visitor.tier) {
        tiers.read(buf, c.pos, end);
        visitor.tier(tiers.tier, tiers.delay);
      }
      return true;
    }
    if (buf[start + 15] === 115) {
      const lit = headOf(SETTLEMENT_HEADS, version);
      if (lit === undefined) return false;
      c.literal(lit);
      if (!c.ok || !head(start, true)) return false;
      scored.origin = c.headOrigin;
      scored.symbol = c.headSymbol;
      scored.tf = c.headTf;
      c.number();
      scored.ts = c.value;
      c.literal(DIRECTION);
      scored.direction = c.text(DIRECTION_SLOT);
      probabilities(scored, P_LONG);
      c.literal(ANCHOR);
      c.number();
      scored.anchor_price = c.value;
      c.literal(STATUS);
      if (!c.ok || !isEpoch(scored.ts)) return false;
      const at = c.pos;
      c.literal(SETTLED);
      if (c.ok) {
        c.literal(SETTLE_PRICE);
        c.number();
        scored.settle_price = c.value;
        if (!c.ok) return false;
        scored.status = 'settled';
      } else {
        c.pos = at;
        c.ok = true;
        c.literal(UNSETTLEABLE);
        if (!c.ok) return false;
        scored.status = 'unsettleable';
        scored.settle_price = Number.NaN;
      }
      // The rest of the line is not read: it must still end the object for the line to be one.
      if (!endsRecord(buf, end, version, IA2_NULL_END)) return false;
      scored.ia2 = null;
      if (engines && version !== 50 && !readIa2(buf, end)) return false;
      visitor.settlement(scored, c.headSeries);
      return true;
    }
    if (buf[start + 15] === 112) {
      const lit = headOf(PRICE_HEADS, version);
      if (lit === undefined) return false;
      c.literal(lit);
      if (!visitor.price) return c.ok && buf[end - 1] === 125;
      const origin = c.textOrNull();
      c.literal(SYMBOL);
      const symbol = c.text(SYMBOL_SLOT);
      c.literal(T);
      c.number();
      const t = c.value;
      if (!c.ok || !isEpoch(t) || buf[end - 1] !== 125) return false;
      visitor.price(origin, symbol, t);
      return true;
    }
    return false;
  };
  const seriesBase = shares?.seriesBase ?? 0;
  const onLine = (buf: Buffer, start: number, end: number): void => {
    // The chunk was read again (lines start over): the last head's bytes are gone.
    if (start <= c.headLine) c.headLength = 0;
    if (bytesRead !== undefined) bytesRead[0]! += end - start + 1;
    if (end === start) return;
    if (end - start > 16 && fast(buf, start, end)) return;
    if (stats) stats.parsedInFull++;
    const r = parseLine(buf, start, end);
    if (r === 'damaged') problems.damaged++;
    else if (r === 'newer') problems.newer++;
    else if (r.kind === 'forecast') {
      visitor.forecast(r.origin, r.symbol, r.tf, r.ts, -1, targets ? r.target_t : Number.NaN);
      visitor.tier?.(r.tier, r.delay_min);
    } else if (r.kind === 'price') visitor.price?.(r.origin, r.symbol, r.t);
    else if (r.kind === 'settlement') visitor.settlement(scoredLine(r, engines), -1);
    // An alert's line (kind "alert", which the fast path never takes) is no forecast's: a
    // report skips it, and counts it as nothing wrong.
  };
  const onTorn = () => problems.torn++;
  if (shares === undefined) forEachLine(path, 0, onLine, onTorn);
  else
    for (let k = 0; k < shares.count; k++) {
      if (!shares.mine(k)) continue;
      // The buffer of a share's read holds none of the last share's lines (its bytes are
      // reused): the last head is not compared against.
      c.headLength = 0;
      c.headLine = -1;
      forEachLineBetween(
        path,
        shares.fd,
        k * shares.bytes,
        k === shares.count - 1 ? Number.POSITIVE_INFINITY : (k + 1) * shares.bytes,
        onLine,
        onTorn,
      );
      shares.ended?.(k);
    }
  if (stats) stats.slowNumbers = (stats.slowNumbers ?? 0) + c.slowNumbers;
}
