// The worker of compare-threads.ts: computes the timeframes it is sent, each as the one-thread
// comparison would, and answers with their figures. Bundled alone into dist/compare-worker.cjs
// (scripts/build.js), so that it starts without the rest of fcast.
import { parentPort } from 'node:worker_threads';
import { type CompareOptions, type CompareSample, compareTimeframe } from '../evidence/compare/compare.js';
import { releaseScratch } from '../evidence/compare/scratch.js';
import type { WorkerReply } from './compare-threads.js';

parentPort!.on('message', ({ samples, opts }: { samples: CompareSample[]; opts: CompareOptions }) => {
  let reply: WorkerReply;
  try {
    reply = { done: samples.map((s) => compareTimeframe(s, opts)) };
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  } finally {
    releaseScratch();
  }
  parentPort!.postMessage(reply);
});
