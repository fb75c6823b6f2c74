// Reading the month files on a second thread while this one scores them: a report's or a
// comparison's scan is mostly parsing lines (fast-lines.ts), and on two cores parsing overlaps
// what the visitor does with them (docs/decisions/2026-12-03-journal-read-ahead.md). Each file
// is cut into shares of 1 MiB (the lines that start in a share are its own). A worker
// (scan-worker.ts) parses two shares in three and writes each call it makes to its visitor
// into a ring of shared memory; this thread parses the third itself, and between its own
// replays the worker's calls, in the file's order and with the same values, to the caller's
// visitor. The result is the same as reading the file here, value for value and call for
// call (test/unit/journal-lines.test.ts), but for the series numbers, which each thread
// counts for itself and keeps apart from the other's (scan-ring.ts's seriesBase).
//
// Small journals are read here (a worker takes a while to start), and so is everything
// where no worker file stands beside the bundle (tsc's output alone, the standalone executable).
import { closeSync, existsSync, fstatSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { packageFileUrl } from '../core/package-files.js';
import { type ReportVisitor, scanForReport } from './fast-lines.js';
import { openToRead, type ReadProblems } from './lines.js';
import {
  HERE,
  newRing,
  partyOf,
  RingReader,
  type ScanWants,
  seriesBase,
  type SharePlan,
  sharesOf,
} from './scan-ring.js';

/** Below this many bytes in all the files, they are read on this thread. */
const AHEAD_FROM = 32 * 1024 * 1024;

/**
 * A share of a file (SharePlan): small enough that the worker's calls for the shares it reads
 * while this thread reads one of its own fit in the ring (about 12 MB of lines), large enough
 * that opening it costs little beside its parse. `always` cuts shares of 4 KiB, so that a
 * test's small journal is shared too.
 */
const SHARE_BYTES = 1024 * 1024;
const SHARE_BYTES_ALWAYS = 4096;

/**
 * Who reads share k of a file: PATTERN[k % PATTERN.length], a worker's number or HERE. This
 * thread also replays the worker's calls, so it reads one share in three; a second worker, or
 * more here, measured slower (docs/decisions/2026-12-03-journal-shares.md).
 */
const PATTERN = [0, 0, HERE];
const WORKERS = Math.max(...PATTERN) + 1;

/**
 * FCAST_SCAN_AHEAD, a test's switch, not a setting: `always` reads any journal ahead and
 * compares on two threads (so that a small one takes the workers' paths), `never` neither.
 */
export type AheadSwitch = string | undefined;

export interface FileScans {
  /** Whether a worker reads the files. */
  readonly ahead: boolean;
  /** scanForReport's work for the next file of those opened, in their order. */
  scan(path: string, visitor: ReportVisitor, problems: ReadProblems): void;
  /** Lets the worker go (it has most often ended already). */
  close(): void;
}

const here: FileScans = {
  ahead: false,
  scan: (path, visitor, problems) => scanForReport(path, visitor, problems),
  close() {},
};

/** A worker's file (`dist/<name>.cjs`), beside the bundles, when the build made one. */
export function workerFile(name: string): string | undefined {
  try {
    const url = packageFileUrl(`dist/${name}.cjs`);
    return existsSync(url) ? fileURLToPath(url) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the files of `paths` are worth a second thread (FCAST_SCAN_AHEAD may say): a file
 * that cannot be stat'ed counts for nothing (its read meets the error and reports it).
 */
export function worthASecondThread(paths: readonly string[], ahead: AheadSwitch): boolean {
  if (ahead === 'never' || paths.length === 0) return false;
  if (ahead === 'always') return true;
  return paths.reduce((total, p) => total + sizeOf(p), 0) >= AHEAD_FROM;
}

/** The file opened to read, or -1 (its read meets the error). */
function openedOrNot(path: string): number {
  try {
    return openToRead(path);
  } catch {
    return -1;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  } catch {
    // EACCES on the way, a loop of links: no size.
    return 0;
  }
}

/**
 * The scans of `paths` (in that order: the caller scans them so), read ahead on a worker when
 * they are large enough and a worker can start; else on this thread.
 */
export function openScans(paths: readonly string[], wants: ScanWants, ahead: AheadSwitch): FileScans {
  if (!worthASecondThread(paths, ahead)) return here;
  const file = workerFile('scan-worker');
  if (file === undefined) return here;
  const bytes = ahead === 'always' ? SHARE_BYTES_ALWAYS : SHARE_BYTES;
  const fds = paths.map(openedOrNot);
  // The sizes as they are now: every thread cuts the files alike, however they grow meanwhile.
  const counts = fds.map((fd, i) => sharesOf(fd < 0 ? sizeOf(paths[i]!) : fstatSync(fd).size, bytes));
  const plan: SharePlan = { bytes, counts, pattern: PATTERN, fds };
  const readers: RingReader[] = [];
  const workers: Worker[] = [];
  const closeFile = (i: number) => {
    if (fds[i]! >= 0) closeSync(fds[i]!);
    fds[i] = -1;
  };
  const close = () => {
    for (const r of readers) r.close();
    // The workers may be reading still: the files are closed once they have stopped.
    void Promise.allSettled(workers.map((w) => w.terminate())).then(() => {
      for (let i = 0; i < fds.length; i++) closeFile(i);
    });
  };
  for (let party = 0; party < WORKERS; party++) {
    const ring = newRing();
    const { port1, port2 } = new MessageChannel();
    try {
      const worker = new Worker(file, {
        workerData: { paths, wants, ring, port: port2, plan, party },
        transferList: [port2],
        // The worker needs none of the parent's flags (a --cpu-prof would write a second profile).
        execArgv: [],
        stdout: false,
        stderr: false,
      });
      worker.unref();
      // An error in the worker reaches the reader as FILE_FAILED; the event is only for Node.
      worker.on('error', () => {});
      workers.push(worker);
      readers.push(new RingReader(ring, port1));
    } catch {
      port1.close();
      close();
      return here;
    }
  }
  let next = 0;
  return {
    ahead: true,
    scan(path, visitor, problems) {
      const i = next++;
      if (paths[i] !== path) {
        for (const r of readers) r.failed = true;
        scanForReport(path, visitor, problems);
        return;
      }
      // Each worker's shares are replayed in their turn. Those of a worker that has failed
      // before writing any of the file's calls are read here.
      scanForReport(path, visitor, problems, undefined, {
        bytes,
        count: plan.counts[i]!,
        fd: fds[i]! < 0 ? undefined : fds[i],
        mine: (k) => {
          const party = partyOf(plan, k);
          if (party === HERE) return true;
          const reader = readers[party]!;
          return reader.failed || !reader.replay(visitor, problems, undefined, true);
        },
        seriesBase: seriesBase(plan, HERE),
      });
      // Each worker's end of the file: its problems. Then no worker reads the file any more.
      for (const r of readers) if (!r.failed) r.replay(visitor, problems);
      if (readers.every((r) => !r.failed)) closeFile(i);
    },
    close,
  };
}
