#!/usr/bin/env node
// A watch's memory over 1,000 refreshes: fcast's main() in this process, driven by a fake clock
// (every sleep returns after one turn of the event loop, moving the clock on by what was
// asked), against an emulator given by the parent (scripts/bench.js) or started here. RSS and
// the heap in use are read after a full garbage collection at refreshes 50, 1,050 and 2,050.
// The measure is the second thousand: back to back, as here, the first thousand allocate fast
// enough for V8 to grow its young generation once (a one-time step of RSS that a refresh a
// minute would not cause, while the heap in use grows by compiled code only: the figures are in
// docs/decisions/2026-11-27-watch-internals.md); it is printed too, as `firstMiB`.
//   node --expose-gc scripts/bench-watch.js [board|ndjson|table] [BASE_URL KEY]   (after `npm run build`)
// Prints one JSON line: { mode, refreshes, rssBeforeMiB, rssAfterMiB, growthMiB, ratio,
// heapGrowthMiB, firstMiB, cpuMsPerRefresh }.
import { Readable } from 'node:stream';

const mode = process.argv[2] ?? 'ndjson';
const FIRST = 50;
const REFRESHES = 1000;
const WARM = FIRST + REFRESHES;
const dist = new URL('../dist/', import.meta.url);
const { main } = await import(new URL('cli/main.js', dist).href);
const { defaultTransport, proxyFromEnv } = await import(new URL('api/transport.js', dist).href);
const { packageVersion } = await import(new URL('core/context.js', dist).href);

let server;
let [baseUrl, key] = process.argv.slice(3);
if (!baseUrl) {
  const { startMock } = await import(new URL('mock/index.js', dist).href);
  // An emulated minute per real 100 ms: forecasts renew and prices move as the refreshes go.
  server = await startMock({ seed: 'bench', quiet: true, clock: { speed: 600 } });
  baseUrl = server.url;
  key = server.testKey;
}

let now = Date.UTC(2026, 0, 15, 15, 30);
const clock = {
  now: () => now,
  random: () => 0.5,
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      setImmediate(() => {
        now += ms;
        resolve();
      });
    }),
};

const gc = globalThis.gc ?? (() => {});
const samples = [];
const heaps = [];
const stop = new AbortController();
let refreshes = 0;
let cpuAtWarm;
// Counts refreshes where they end: the answer read, through the same wire fcast uses.
const transport = (ctx) => {
  const wire = defaultTransport(proxyFromEnv(ctx.env));
  return {
    ...wire,
    async send(req) {
      const res = await wire.send(req);
      res.body.once('end', () => {
        refreshes++;
        if (refreshes === FIRST || refreshes === WARM || refreshes === WARM + REFRESHES) {
          gc();
          samples.push(process.memoryUsage.rss());
          heaps.push(process.memoryUsage().heapUsed);
          if (refreshes === WARM) cpuAtWarm = process.cpuUsage();
        }
        if (refreshes >= WARM + REFRESHES) stop.abort();
      });
      return res;
    },
  };
};

const terminal = mode === 'board';
const sink = { isTTY: terminal, columns: 120, rows: 40, write: () => true };
const stdin = Readable.from([]);
const ctx = {
  io: { stdout: sink, stderr: { isTTY: false, write: () => true }, stdin },
  env: { FCAST_BASE_URL: baseUrl, FCAST_API_KEY: key, FCAST_CONFIG_DIR: '/nonexistent-fcast-bench', NO_COLOR: '1' },
  clock,
  signal: stop.signal,
  platform: process.platform,
  homedir: '/nonexistent-fcast-bench',
  nodeVersion: process.versions.node,
  version: packageVersion(),
};
const argv = ['predict', 'BTC/USD', '--watch', '--interval', '5', ...(mode === 'ndjson' ? ['--json'] : [])];
await main(argv, ctx, { transport });
const cpu = process.cpuUsage(cpuAtWarm);
await server?.close();
const [first, before, after] = samples.map((b) => b / 1024 / 1024);
console.log(
  JSON.stringify({
    mode,
    refreshes: REFRESHES,
    rssBeforeMiB: Number(before.toFixed(1)),
    rssAfterMiB: Number(after.toFixed(1)),
    growthMiB: Number((after - before).toFixed(2)),
    ratio: Number((after / before).toFixed(3)),
    heapGrowthMiB: Number(((heaps[2] - heaps[1]) / 1024 / 1024).toFixed(2)),
    firstMiB: Number((before - first).toFixed(2)),
    cpuMsPerRefresh: Number(((cpu.user + cpu.system) / 1000 / REFRESHES).toFixed(2)),
  }),
);
process.exit(0);
