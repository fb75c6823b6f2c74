// The ring of shared memory through which scan-worker.ts hands its calls to scan-ahead.ts's
// reader: chunks of doubles, each call an event of a few of them (its kind, its strings as
// numbers, its values), the strings themselves posted on a port the first time.
import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { blankScoredLine, type ReportVisitor, type ScoredLine } from './fast-lines.js';
import type { ReadProblems } from './lines.js';
import type { Probabilities } from './record.js';

/** What the worker's visitor has of the caller's: the parse reads what these ask for, no more. */
export interface ScanWants {
  engines: boolean;
  targets: boolean;
  tiers: boolean;
  prices: boolean;
}

// --- the shares -------------------------------------------------------------------------------

/**
 * How the threads share the files: each file cut into shares of `bytes` (`counts[i]` of them for
 * paths[i], the last running to the file's end), share k read by `pattern[k % pattern.length]`:
 * a worker's number (0, 1, …), or HERE, the thread that replays the workers' calls.
 */
export interface SharePlan {
  bytes: number;
  counts: readonly number[];
  pattern: readonly number[];
  /**
   * Each file opened once, by the thread that replays (a worker shares its descriptors): every
   * thread reads the same file to the end, as one thread reading it would. -1: it could not be
   * opened, and each thread meets the error at its path.
   */
  fds: readonly number[];
}

export const HERE = -1;

export const partyOf = (plan: Pick<SharePlan, 'pattern'>, k: number): number => plan.pattern[k % plan.pattern.length]!;

/** The shares of a file of `size` bytes. */
export const sharesOf = (size: number, bytes: number): number => Math.max(1, Math.ceil(size / bytes));

/**
 * What each thread adds to the series numbers it hands over (Shares.seriesBase): the fast path's
 * stay below 2^30, so that no two threads' numbers meet. The first worker's are as they are; so
 * they stay small integers, and V8 keys its maps by them fastest.
 */
export const seriesBase = (plan: Pick<SharePlan, 'pattern'>, party: number): number =>
  (party === HERE ? Math.max(...plan.pattern) + 1 : party) * 2 ** 30;

// --- the ring --------------------------------------------------------------------------------

/** Chunks of the ring, and doubles per chunk: 2 MiB in all, reused (no page faulted in twice). */
export const CHUNKS = 8;
export const CHUNK_DOUBLES = 1 << 15;
/** The longest event (a settlement's). */
const LONGEST = 18;

/**
 * control[WRITTEN]: chunks the worker has filled; control[READ]: chunks this thread has
 * replayed; control[CANCELLED]: 1 once this thread wants no more (the worker then stops);
 * control[STARTED]: 1 once the worker's script runs.
 */
const WRITTEN = 0;
const READ = 1;
const CANCELLED = 2;
const STARTED = 3;

export const FORECAST = 1;
export const TIER = 2;
export const SETTLEMENT = 3;
export const PRICE = 4;
/** A file read to its end: its bytes, its problems and the fast path's counts. */
export const FILE_END = 5;
/** A file the worker could not read: this thread reads it (and every later one) itself. */
export const FILE_FAILED = 6;
/** The end of one of a file's shares (fast-lines.ts's Shares) that the worker read. */
export const SHARE_END = 7;

export interface Ring {
  control: Int32Array;
  lengths: Int32Array;
  data: Float64Array;
}

export function newRing(): Ring {
  return {
    control: new Int32Array(new SharedArrayBuffer(4 * 4)),
    lengths: new Int32Array(new SharedArrayBuffer(CHUNKS * 4)),
    data: new Float64Array(new SharedArrayBuffer(CHUNKS * CHUNK_DOUBLES * 8)),
  };
}

/** Tells the worker that the reader wants no more: it stops at its next wait. */
export function cancel(ring: Ring): void {
  Atomics.store(ring.control, CANCELLED, 1);
  Atomics.notify(ring.control, READ);
}

/** Thrown in the reader when the worker never started: nothing was replayed, and the files are read here. */
class NeverStarted extends Error {}

/** Thrown in the worker when the reader has let the scans go: the worker ends. */
export class Cancelled extends Error {}

/**
 * The worker's side: a visitor that writes every call into the ring, its strings as numbers
 * (each new one first posted on `port`), and a file's end. It waits while the ring is full.
 */
export class RingWriter {
  private chunk = 0;
  private at = 0;
  private readonly ids = new Map<string, number>();
  /** Events written so far. */
  events = 0;
  readonly bytesRead = new Float64Array(1);
  constructor(
    private readonly ring: Ring,
    private readonly port: Pick<MessagePort, 'postMessage'>,
  ) {
    Atomics.store(ring.control, STARTED, 1);
  }

  /** A string's number (null's is −1), posted first when new. */
  id(s: string | null): number {
    if (s === null) return -1;
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(s, id);
      this.port.postMessage([id, s]);
    }
    return id;
  }

  /** Room for one event in the chunk being filled: its offset. */
  private room(): number {
    if (this.at + LONGEST > CHUNK_DOUBLES) this.flush();
    this.events++;
    return this.chunk * CHUNK_DOUBLES + this.at;
  }

  /** Hands the chunk being filled to the reader, then waits for a free one (Cancelled: the reader wants no more). */
  flush(): void {
    const { control, lengths } = this.ring;
    if (this.at === 0) return;
    const written = Atomics.load(control, WRITTEN);
    lengths[written % CHUNKS] = this.at;
    Atomics.store(control, WRITTEN, written + 1);
    Atomics.notify(control, WRITTEN);
    for (;;) {
      const read = Atomics.load(control, READ);
      if (written + 1 - read < CHUNKS) break;
      if (Atomics.load(control, CANCELLED) === 1) throw new Cancelled();
      Atomics.wait(control, READ, read, 200);
    }
    this.chunk = (written + 1) % CHUNKS;
    this.at = 0;
  }

  visitor(wants: ScanWants): ReportVisitor {
    const d = this.ring.data;
    const bytes = this.bytesRead;
    const visitor: ReportVisitor = {
      engines: wants.engines,
      targets: wants.targets,
      bytesRead: bytes,
      forecast: (origin, symbol, tf, ts, series, targetT) => {
        const o = this.id(origin);
        const s = this.id(symbol);
        const t = this.id(tf);
        const i = this.room();
        d[i] = FORECAST;
        d[i + 1] = o;
        d[i + 2] = s;
        d[i + 3] = t;
        d[i + 4] = ts;
        d[i + 5] = series;
        d[i + 6] = targetT;
        d[i + 7] = bytes[0]!;
        this.at += 8;
      },
      settlement: (line, series) => {
        const o = this.id(line.origin);
        const s = this.id(line.symbol);
        const t = this.id(line.tf);
        const dir = this.id(line.direction);
        const i = this.room();
        d[i] = SETTLEMENT;
        d[i + 1] = o;
        d[i + 2] = s;
        d[i + 3] = t;
        d[i + 4] = line.ts;
        d[i + 5] = series;
        d[i + 6] = bytes[0]!;
        d[i + 7] = line.status === 'settled' ? 0 : 1;
        d[i + 8] = dir;
        d[i + 9] = line.p_long;
        d[i + 10] = line.p_short;
        d[i + 11] = line.p_flat;
        // No record holds a NaN: it stands for null.
        d[i + 12] = line.anchor_price ?? Number.NaN;
        d[i + 13] = line.settle_price;
        const ia2 = line.ia2;
        d[i + 14] = ia2 === null ? 0 : 1;
        d[i + 15] = ia2 === null ? 0 : ia2.p_long;
        d[i + 16] = ia2 === null ? 0 : ia2.p_short;
        d[i + 17] = ia2 === null ? 0 : ia2.p_flat;
        this.at += 18;
      },
    };
    if (wants.tiers)
      visitor.tier = (tier, delay) => {
        const t = this.id(tier);
        const i = this.room();
        d[i] = TIER;
        d[i + 1] = t;
        d[i + 2] = delay ?? Number.NaN;
        this.at += 3;
      };
    if (wants.prices)
      visitor.price = (origin, symbol, t) => {
        const o = this.id(origin);
        const s = this.id(symbol);
        const i = this.room();
        d[i] = PRICE;
        d[i + 1] = o;
        d[i + 2] = s;
        d[i + 3] = t;
        d[i + 4] = bytes[0]!;
        this.at += 5;
      };
    return visitor;
  }

  /** A file's end: what the scan found wrong in it, and how far it read. */
  fileEnd(problems: ReadProblems, stats: { parsedInFull: number; slowNumbers?: number }): void {
    const d = this.ring.data;
    const i = this.room();
    d[i] = FILE_END;
    d[i + 1] = this.bytesRead[0]!;
    d[i + 2] = problems.damaged;
    d[i + 3] = problems.newer;
    d[i + 4] = problems.torn;
    d[i + 5] = stats.parsedInFull;
    d[i + 6] = stats.slowNumbers ?? 0;
    this.at += 7;
    this.bytesRead[0] = 0;
  }

  /** The end of a share the worker read, handed over at once: this thread replays it, then reads its own. */
  shareEnd(): void {
    const d = this.ring.data;
    const i = this.room();
    d[i] = SHARE_END;
    d[i + 1] = this.bytesRead[0]!;
    this.at += 2;
    this.flush();
  }

  /** The worker stops at a file it could not read (`started`: after some of its calls were written). */
  fileFailed(started: boolean, message: string): void {
    this.port.postMessage(['error', message]);
    const d = this.ring.data;
    const i = this.room();
    d[i] = FILE_FAILED;
    d[i + 1] = started ? 1 : 0;
    this.at += 2;
    this.flush();
  }
}

/**
 * This thread's side: replays the calls of one of a file's shares, or of the rest of the file up
 * to its end (adding the worker's problems to `problems`), from the ring to `visitor`. Returns
 * false when the worker could not read the file and had written none of its calls (the caller
 * reads it itself), and throws when it failed midway.
 */
export class RingReader {
  private chunk = -1;
  private at = 0;
  private length = 0;
  /** The worker's count of the file's bytes, as far as it has been replayed (visitor.bytesRead). */
  private sent = 0;
  private readonly strings: Array<string> = [];
  private readonly scored: ScoredLine = blankScoredLine();
  private readonly ia2: Probabilities = { p_long: 0, p_short: 0, p_flat: 0 };
  /** Set once the worker has failed: the caller reads what it would have. */
  failed = false;

  constructor(
    private readonly ring: Ring,
    private readonly port: MessagePort,
    private readonly waitMs = 60_000,
    private readonly startMs = 10_000,
  ) {}

  /** Lets the worker go: it stops at its next wait. */
  close(): void {
    cancel(this.ring);
    this.port.close();
  }

  /** String `id`, taken from the port when it is new (the worker posts it before the call that names it). */
  private text(id: number): string | null {
    if (id < 0) return null;
    const known = this.strings[id];
    if (known !== undefined) return known;
    this.receiveUpTo(id);
    return this.strings[id]!;
  }

  private receiveUpTo(id: number): void {
    const started = Date.now();
    while (this.strings[id] === undefined) {
      const m = receiveMessageOnPort(this.port);
      if (m === undefined) {
        if (Date.now() - started > this.waitMs) throw new Error('journal: the reading thread stopped answering');
        Atomics.wait(this.ring.control, READ, Atomics.load(this.ring.control, READ), 1);
        continue;
      }
      const [key, value] = m.message as [number | 'error', string];
      if (key === 'error') this.error = value;
      // Interned, as the fast path's strings are: the visitors compare them by identity.
      else this.strings[key] = Object.keys({ [value]: 0 })[0] ?? value;
    }
  }

  private error = '';

  /** The next chunk, waiting for the worker to fill it. */
  private next(): void {
    const { control, lengths } = this.ring;
    if (this.chunk >= 0) {
      Atomics.store(control, READ, Atomics.load(control, READ) + 1);
      Atomics.notify(control, READ);
    }
    const read = Atomics.load(control, READ);
    const started = Date.now();
    while (Atomics.load(control, WRITTEN) === read) {
      // A worker whose script never ran (it could not load) never writes: after startMs, the
      // files are read here. One that runs and fails says so (FILE_FAILED).
      if (Atomics.load(control, STARTED) === 0) {
        if (Date.now() - started > this.startMs) throw new NeverStarted();
        Atomics.wait(control, WRITTEN, read, 20);
        continue;
      }
      if (Atomics.wait(control, WRITTEN, read, this.waitMs) === 'timed-out' || Date.now() - started > this.waitMs)
        throw new Error('journal: the reading thread stopped answering');
    }
    this.chunk = read % CHUNKS;
    this.at = 0;
    this.length = lengths[this.chunk]!;
  }

  /** Replays the calls up to the file's end (or, with `share`, up to a share's end). */
  replay(
    visitor: ReportVisitor,
    problems: ReadProblems,
    stats?: { parsedInFull: number; slowNumbers?: number },
    share = false,
  ): boolean {
    try {
      const end = this.replayed(visitor, problems, stats);
      if (end !== 0 && end !== (share ? SHARE_END : FILE_END))
        throw new Error('journal: the reading thread ended a share where this one did not');
      return end !== 0;
    } catch (err) {
      if (!(err instanceof NeverStarted)) throw err;
      this.failed = true;
      return false;
    }
  }

  private replayed(
    visitor: ReportVisitor,
    problems: ReadProblems,
    stats?: { parsedInFull: number; slowNumbers?: number },
  ): typeof FILE_END | typeof SHARE_END | 0 {
    const d = this.ring.data;
    const bytes = visitor.bytesRead;
    let sent = this.sent;
    const scored = this.scored;
    for (;;) {
      if (this.at >= this.length) this.next();
      const i = this.chunk * CHUNK_DOUBLES + this.at;
      const kind = d[i]!;
      if (kind === FORECAST) {
        if (bytes) {
          bytes[0]! += d[i + 7]! - sent;
          sent = d[i + 7]!;
        }
        this.at += 8;
        visitor.forecast(
          this.text(d[i + 1]!),
          this.text(d[i + 2]!)!,
          this.text(d[i + 3]!)!,
          d[i + 4]!,
          d[i + 5]!,
          d[i + 6]!,
        );
      } else if (kind === SETTLEMENT) {
        if (bytes) {
          bytes[0]! += d[i + 6]! - sent;
          sent = d[i + 6]!;
        }
        this.at += 18;
        scored.origin = this.text(d[i + 1]!);
        scored.symbol = this.text(d[i + 2]!)!;
        scored.tf = this.text(d[i + 3]!)!;
        scored.ts = d[i + 4]!;
        scored.status = d[i + 7] === 0 ? 'settled' : 'unsettleable';
        scored.direction = this.text(d[i + 8]!)!;
        scored.p_long = d[i + 9]!;
        scored.p_short = d[i + 10]!;
        scored.p_flat = d[i + 11]!;
        const anchor = d[i + 12]!;
        scored.anchor_price = Number.isNaN(anchor) ? null : anchor;
        scored.settle_price = d[i + 13]!;
        if (d[i + 14] === 0) scored.ia2 = null;
        else {
          const p = this.ia2;
          p.p_long = d[i + 15]!;
          p.p_short = d[i + 16]!;
          p.p_flat = d[i + 17]!;
          scored.ia2 = p;
        }
        visitor.settlement(scored, d[i + 5]!);
      } else if (kind === TIER) {
        this.at += 3;
        const delay = d[i + 2]!;
        visitor.tier?.(this.text(d[i + 1]!), Number.isNaN(delay) ? null : delay);
      } else if (kind === PRICE) {
        if (bytes) {
          bytes[0]! += d[i + 4]! - sent;
          sent = d[i + 4]!;
        }
        this.at += 5;
        visitor.price?.(this.text(d[i + 1]!), this.text(d[i + 2]!)!, d[i + 3]!);
      } else if (kind === FILE_END) {
        if (bytes) bytes[0]! += d[i + 1]! - sent;
        problems.damaged += d[i + 2]!;
        problems.newer += d[i + 3]!;
        problems.torn += d[i + 4]!;
        if (stats) {
          stats.parsedInFull += d[i + 5]!;
          stats.slowNumbers = (stats.slowNumbers ?? 0) + d[i + 6]!;
        }
        this.at += 7;
        this.sent = 0;
        return FILE_END;
      } else if (kind === SHARE_END) {
        // The share's lines after its last call (a damaged one, say) count as read here too.
        if (bytes) {
          bytes[0]! += d[i + 1]! - sent;
          sent = d[i + 1]!;
        }
        this.at += 2;
        this.sent = sent;
        return SHARE_END;
      } else if (kind === FILE_FAILED) {
        this.failed = true;
        const started = d[i + 1] === 1;
        this.at += 2;
        if (!started) return 0;
        this.receiveUpTo(Number.MAX_SAFE_INTEGER);
        throw new Error(this.error || 'journal: a month file could not be read');
      } else throw new Error(`journal: the reading thread wrote an unknown event (${kind})`);
    }
  }
}
