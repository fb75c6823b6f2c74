// `journal compare` on two threads: the timeframes are independent until Holm's adjustment,
// so a worker (compare-worker.ts) computes some of them while this thread computes the rest
// (docs/decisions/2026-12-03-journal-read-ahead.md). The worker is started before the journal
// is read, so that its start-up overlaps the scan, and the samples reach it in shared memory
// (compare.ts's columns), not copied; only a timeframe read out of time order, which sampleOf
// sorts into ordinary arrays, is copied to it. The figures are the same as on one thread, value for
// value: each timeframe is computed by the same code from the same arrays, and the document is
// put together here in the samples' order.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  assemble,
  type Comparison,
  type CompareOptions,
  type CompareSample,
  type CorpCurves,
  compareTimeframe,
  type TimeframeFigures,
} from '../evidence/compare/compare.js';
import { releaseScratch } from '../evidence/compare/scratch.js';
import { type CompareScan, filesToCompare, scanForCompare } from './compare.js';
import type { JournalFilter } from './report.js';
import { type AheadSwitch, workerFile, worthASecondThread } from './scan-ahead.js';

export interface Comparing {
  /** 2 when a worker computes some of the timeframes (when there are two or more), else 1. */
  readonly threads: 1 | 2;
  /** The journal read (scanForCompare), its samples ready for the second thread when there is one. */
  scan(): CompareScan;
  /** The samples compared: on two threads when a worker runs and there are two timeframes or more. */
  compare(samples: readonly CompareSample[], opts: CompareOptions): Promise<Compared>;
  /** Lets the worker go; safe to call twice, and whether or not compare ran. */
  close(): void;
}

/** A comparison's document and the CORP fits the views draw. */
export type Compared = { doc: Comparison; curves: Map<string, CorpCurves> };

/** What the worker answers: the figures of the samples it was sent, in their order, or why not. */
export type WorkerReply = { done: TimeframeFigures[] } | { error: string };

/**
 * A comparison of the journal in `dir` as `filter` selects it: a worker started now when the
 * files are large enough for a second thread to pay (scan-ahead.ts), else none.
 */
export function openComparison(
  dir: string | undefined,
  filter: JournalFilter,
  flatBandPct: number,
  ahead: AheadSwitch,
): Comparing {
  const paths = dir === undefined ? [] : filesToCompare(dir, filter).map((file) => join(dir, file));
  // One timeframe asked for (--tf) is one share: the worker would have none.
  const oneTimeframe = filter.tfs !== undefined && new Set(filter.tfs).size <= 1 && ahead !== 'always';
  const worker = !oneTimeframe && worthASecondThread(paths, ahead) ? startCompareWorker() : undefined;
  return {
    threads: worker === undefined ? 1 : 2,
    scan: () => scanForCompare(dir, filter, flatBandPct, ahead, worker !== undefined),
    compare: async (samples, opts) =>
      worker === undefined ? assemble(computed(samples, opts), opts) : onTwoThreads(worker, samples, opts),
    close: () => void worker?.terminate(),
  };
}

/** The workers whose 'exit' has come. */
const ended = new WeakSet<Worker>();

/** The comparison's worker (dist/compare-worker.cjs), or none when the build made no such file or it cannot start. */
export function startCompareWorker(): Worker | undefined {
  const file = workerFile('compare-worker');
  if (file === undefined) return undefined;
  try {
    // The worker needs none of the parent's flags (a --cpu-prof would write a second profile).
    const worker = new Worker(file, { execArgv: [], stdout: false, stderr: false });
    // Idle, it keeps no process alive; figuresFrom holds it while an answer is awaited.
    worker.unref();
    worker.on('error', () => {});
    worker.once('exit', () => ended.add(worker));
    return worker;
  } catch {
    return undefined;
  }
}

/** `samples` compared, a share of the timeframes on `worker`, the rest here: the same document as on one thread. */
export async function onTwoThreads(
  worker: Worker,
  samples: readonly CompareSample[],
  opts: CompareOptions,
): Promise<Compared> {
  const [here, there] = split(samples);
  if (there.length === 0) return assemble(computed(samples, opts), opts);
  const theirs = figuresFrom(worker, there, opts);
  const mine = computed(here, opts);
  // A worker that failed (out of memory, killed) leaves its share to this thread: posting
  // shares or copies the samples, never takes them, so they are still here.
  const got = (await theirs) ?? computed(there, opts);
  const byTf = new Map([...mine, ...got].map((f) => [f.doc.tf, f]));
  return assemble(
    samples.map((s) => byTf.get(s.tf)!),
    opts,
  );
}

/** The worker's figures of `samples`, or undefined when it could not give them (it said why, or it ended). */
export function figuresFrom(
  worker: Worker,
  samples: CompareSample[],
  opts: CompareOptions,
): Promise<TimeframeFigures[] | undefined> {
  // One that ended during the read (it could not start, it ran out of memory) would never
  // answer, nor end again: its 'exit' came and went.
  if (ended.has(worker) || worker.threadId === -1) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const settle = (figures: TimeframeFigures[] | undefined) => {
      worker.off('message', onMessage);
      worker.off('messageerror', onExit);
      worker.off('exit', onExit);
      worker.unref();
      resolve(figures);
    };
    const onMessage = (reply: WorkerReply) => settle('done' in reply ? reply.done : undefined);
    const onExit = () => settle(undefined);
    worker.on('message', onMessage);
    worker.on('messageerror', onExit);
    worker.on('exit', onExit);
    worker.ref();
    worker.postMessage({ samples, opts });
  });
}

/** The figures of `samples`, computed here. */
const computed = (samples: readonly CompareSample[], opts: CompareOptions): TimeframeFigures[] => {
  try {
    return samples.map((s) => compareTimeframe(s, opts));
  } finally {
    releaseScratch();
  }
};

/**
 * The samples in two shares of about the same number of forecasts (a timeframe's cost is about
 * linear in its forecasts): the largest first, each to the lighter share. This thread's first.
 */
export function split(samples: readonly CompareSample[]): [CompareSample[], CompareSample[]] {
  const shares: [CompareSample[], CompareSample[]] = [[], []];
  const load = [0, 0];
  for (const s of [...samples].sort((a, b) => b.ts.length - a.ts.length)) {
    const k = load[0]! <= load[1]! ? 0 : 1;
    shares[k].push(s);
    load[k] = load[k]! + s.ts.length;
  }
  return shares;
}
