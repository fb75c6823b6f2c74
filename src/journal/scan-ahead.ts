// Reading the month files on a second thread while this one scores them: a report's or a
// comparison's scan is mostly parsing lines (fast-lines.ts), and on two cores parsing overlaps
// what the visitor does with them (docs/decisions/2026-12-03-journal-read-ahead.md). A worker
// (scan-worker.ts) runs scanForReport over the files in order and writes each call it makes to
// its visitor into a ring of shared memory; this thread replays the calls, in the same order
// and with the same values, to the caller's visitor. The result is the same as reading the file
// here, value for value and call for call (test/unit/journal-lines.test.ts): only the
// thread that parses differs.
//
// Small journals are read here (a worker takes a while to start), and so is everything
// where no worker file stands beside the bundle (tsc's output alone, the standalone executable).
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { packageFileUrl } from '../core/package-files.js';
import { type ReportVisitor, scanForReport } from './fast-lines.js';
import type { ReadProblems } from './lines.js';
import { cancel, newRing, RingReader, type ScanWants } from './scan-ring.js';

/** Below this many bytes in all the files, they are read on this thread. */
const AHEAD_FROM = 32 * 1024 * 1024;

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
  let total = 0;
  for (const p of paths) {
    try {
      total += statSync(p, { throwIfNoEntry: false })?.size ?? 0;
    } catch {
      // EACCES on the way, a loop of links: no size.
    }
  }
  return total >= AHEAD_FROM;
}

/**
 * The scans of `paths` (in that order: the caller scans them so), read ahead on a worker when
 * they are large enough and a worker can start; else on this thread.
 */
export function openScans(paths: readonly string[], wants: ScanWants, ahead: AheadSwitch): FileScans {
  if (!worthASecondThread(paths, ahead)) return here;
  const file = workerFile('scan-worker');
  if (file === undefined) return here;
  const ring = newRing();
  const { port1, port2 } = new MessageChannel();
  let worker: Worker;
  try {
    worker = new Worker(file, {
      workerData: { paths, wants, ring, port: port2 },
      transferList: [port2],
      // The worker needs none of the parent's flags (a --cpu-prof would write a second profile).
      execArgv: [],
      stdout: false,
      stderr: false,
    });
  } catch {
    port1.close();
    return here;
  }
  worker.unref();
  // An error in the worker reaches the reader as FILE_FAILED; the event is only for Node.
  worker.on('error', () => {});
  const reader = new RingReader(ring, port1);
  let next = 0;
  return {
    ahead: true,
    scan(path, visitor, problems) {
      const k = next++;
      if (reader.failed || paths[k] !== path || !reader.replay(visitor, problems)) {
        reader.failed = true;
        scanForReport(path, visitor, problems);
      }
    },
    close() {
      cancel(ring);
      port1.close();
      void worker.terminate();
    },
  };
}
