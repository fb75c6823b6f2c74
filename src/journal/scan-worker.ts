// The worker of scan-ahead.ts: reads the month files it is given, in order, with the report's
// fast path, and writes every call to its visitor into the shared ring. Bundled alone into
// dist/scan-worker.cjs (scripts/build.js), so that it starts without the rest of fcast.
import { type MessagePort, workerData } from 'node:worker_threads';
import { scanForReport } from './fast-lines.js';
import { noProblems } from './lines.js';
import { Cancelled, partyOf, type Ring, RingWriter, type ScanWants, seriesBase, type SharePlan } from './scan-ring.js';

const { paths, wants, ring, port, plan, party } = workerData as {
  paths: string[];
  wants: ScanWants;
  ring: Ring;
  port: MessagePort;
  plan: SharePlan;
  /** This worker's number in plan.pattern. */
  party: number;
};
const writer = new RingWriter(ring, port);
const visitor = writer.visitor(wants);
try {
  for (const [i, path] of paths.entries()) {
    const problems = noProblems();
    const stats = { parsedInFull: 0, slowNumbers: 0 };
    const before = writer.events;
    try {
      scanForReport(path, visitor, problems, stats, {
        bytes: plan.bytes,
        count: plan.counts[i]!,
        fd: plan.fds[i]! < 0 ? undefined : plan.fds[i],
        mine: (k) => partyOf(plan, k) === party,
        ended: () => writer.shareEnd(),
        seriesBase: seriesBase(plan, party),
      });
    } catch (err) {
      if (err instanceof Cancelled) throw err;
      writer.fileFailed(writer.events !== before, err instanceof Error ? err.message : String(err));
      break;
    }
    writer.fileEnd(problems, stats);
  }
  writer.flush();
} catch (err) {
  // Cancelled: the reader let the scans go, and nothing is left to do. Anything else is told
  // to the reader, which would otherwise wait for the next call.
  if (!(err instanceof Cancelled)) writer.fileFailed(true, err instanceof Error ? err.message : String(err));
}
