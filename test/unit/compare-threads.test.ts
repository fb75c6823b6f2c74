// journal compare on two threads (src/journal/compare-threads.ts): the timeframes shared with
// the real worker (dist/compare-worker.cjs, as built) give the document one thread gives, value
// for value; a worker that fails leaves its share to this thread.
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { type CompareOptions, type CompareSample, compare } from '../../src/evidence/compare/compare.js';
import { Random } from '../../src/evidence/compare/random.js';
import {
  figuresFrom,
  onTwoThreads,
  openComparison,
  split,
  startCompareWorker,
} from '../../src/journal/compare-threads.js';
import { tempDir } from '../helpers/cli.js';

const OPTS: CompareOptions = { flatBandPct: 0.01, alpha: 0.05, replicates: 300, seed: 3 };

/** A timeframe's made-up sample of n forecasts, over shared memory as the scan makes them when a worker waits. */
function sampleOf(tf: string, n: number, seed: number, shared = true): CompareSample {
  const random = new Random(seed);
  const f64 = (xs: ArrayLike<number>) => {
    const a = shared ? new Float64Array(new SharedArrayBuffer(8 * n)) : new Float64Array(n);
    a.set(xs);
    return a;
  };
  const probs = () => {
    const p_long = Float64Array.from({ length: n }, () => random.next() * 0.9);
    const p_flat = Float64Array.from(p_long, (x) => (1 - x) * random.next() * 0.3);
    const p_short = Float64Array.from(p_long, (x, i) => Math.max(0, 1 - x - p_flat[i]!));
    return { p_long: f64(p_long), p_short: f64(p_short), p_flat: f64(p_flat) };
  };
  return {
    tf,
    ts: f64(Array.from({ length: n }, (_, i) => 1_700_000_000 + i * 60)),
    target: f64(Array.from({ length: n }, (_, i) => 1_700_000_000 + i * 60 + 300)),
    symbol: Int32Array.from({ length: n }, (_, i) => i % 3),
    classes: Uint8Array.from({ length: n }, () => Math.floor(random.next() * 3)),
    ia3: probs(),
    ia2: probs(),
  };
}

const samples = () => [
  sampleOf('5min', 900, 1),
  sampleOf('15min', 2_000, 2),
  sampleOf('1h', 400, 3, false),
  sampleOf('4h', 1_500, 4),
];

/** The document and curves as text: Maps and -0 and all, for equality to the last bit. */
const text = (r: Awaited<ReturnType<typeof onTwoThreads>>) =>
  JSON.stringify({ doc: r.doc, curves: [...r.curves] }, (_k, v) => (Object.is(v, -0) ? '-0' : v));

describe('journal compare on two threads', () => {
  it('shares the timeframes by their forecasts, the largest to this thread', () => {
    const [here, there] = split(samples());
    expect(here.map((s) => s.tf)).toEqual(['15min', '1h']);
    expect(there.map((s) => s.tf)).toEqual(['4h', '5min']);
    expect(split([sampleOf('1h', 10, 1)])).toEqual([[expect.objectContaining({ tf: '1h' })], []]);
    expect(split([])).toEqual([[], []]);
  });

  it('gives the very document one thread gives, Holm over all the timeframes, in their order', async () => {
    const worker = startCompareWorker();
    expect(worker, 'dist/compare-worker.cjs (npm run build)').toBeDefined();
    try {
      const all = samples();
      const two = await onTwoThreads(worker!, all, OPTS);
      expect(two.doc.timeframes.map((t) => t.tf)).toEqual(['5min', '15min', '1h', '4h']);
      expect(text(two)).toBe(text(compare(all, OPTS)));
      // The worker answers again: a long-lived process (fcast mcp) may ask twice.
      expect(text(await onTwoThreads(worker!, all.slice(0, 2), OPTS))).toBe(text(compare(all.slice(0, 2), OPTS)));
    } finally {
      await worker!.terminate();
    }
  });

  it('computes here the share of a worker that ended or failed, to the same document', async () => {
    const all = samples();
    const gone = new Worker('process.exit(0)', { eval: true });
    expect(await figuresFrom(gone, all.slice(0, 1), OPTS)).toBeUndefined();
    // Ended before it is asked (during the read): its 'exit' is past, and it answers nothing.
    const early = new Worker('process.exit(0)', { eval: true });
    await new Promise((resolve) => early.once('exit', resolve));
    expect(await figuresFrom(early, all.slice(0, 1), OPTS)).toBeUndefined();
    expect(text(await onTwoThreads(early, all, OPTS))).toBe(text(compare(all, OPTS)));
    const failing = new Worker(
      "require('node:worker_threads').parentPort.on('message', () => require('node:worker_threads').parentPort.postMessage({ error: 'out of memory' }))",
      { eval: true },
    );
    try {
      expect(await figuresFrom(failing, all.slice(0, 1), OPTS)).toBeUndefined();
      expect(text(await onTwoThreads(failing, all, OPTS))).toBe(text(compare(all, OPTS)));
    } finally {
      await failing.terminate();
    }
  });

  it('starts a worker only for a journal worth it (FCAST_SCAN_AHEAD), and lets it go', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, '2026-11.jsonl'), '');
    const none = openComparison(undefined, {}, 0.01, 'always');
    expect(none.threads).toBe(1);
    expect(openComparison(dir, {}, 0.01, undefined).threads).toBe(1);
    expect(openComparison(dir, {}, 0.01, 'never').threads).toBe(1);
    const two = openComparison(dir, {}, 0.01, 'always');
    try {
      expect(two.threads).toBe(2);
      expect(two.scan().samples).toEqual([]);
      expect((await two.compare([], OPTS)).doc.timeframes).toEqual([]);
    } finally {
      two.close();
      two.close();
    }
  });

  it('starts none for a single timeframe (--tf), which is one share, however large the journal', () => {
    const dir = tempDir();
    // 32 MiB by its size, sparse: only its size is read here.
    writeFileSync(join(dir, '2026-11.jsonl'), '');
    truncateSync(join(dir, '2026-11.jsonl'), 32 * 1024 * 1024);
    const all = openComparison(dir, {}, 0.01, undefined);
    const some = openComparison(dir, { tfs: ['1h', '4h'] }, 0.01, undefined);
    const one = openComparison(dir, { tfs: ['1h', '1h'] }, 0.01, undefined);
    try {
      expect([all.threads, some.threads, one.threads]).toEqual([2, 2, 1]);
    } finally {
      for (const c of [all, some, one]) c.close();
    }
  });
});
