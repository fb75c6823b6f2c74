#!/usr/bin/env node
// The emulator under load: requests/s over keep-alive loopback connections, and its heap after
// the run, bounded in count and time. `node scripts/bench-mock.js [seconds] [requests]`
// (after `npm run build`); `npm run bench` prints the same figure.
//   FCAST_BENCH_PATH  the request to repeat (default the keyless demo of BTC/USD)
//   FCAST_BENCH_DIST  the build to load (default ../dist), to compare two builds
// Requests per CPU-second (client and emulator share the process) is the steadier figure on
// a busy machine; requests/s is what a test suite sees.
import http from 'node:http';

const seconds = Number(process.argv[2] ?? process.env.BENCH_MOCK_SECONDS ?? 10);
const limit = Number(process.argv[3] ?? process.env.BENCH_MOCK_REQUESTS ?? 20_000);
const concurrency = 8;
const path = process.env.FCAST_BENCH_PATH ?? '/api/agent/v1/demo.php?symbol=BTC%2FUSD';

export async function measureMock({ seconds: s = seconds, requests = limit } = {}) {
  const dist = process.env.FCAST_BENCH_DIST ?? new URL('../dist/', import.meta.url).href;
  const { startMock } = await import(new URL('mock/index.js', dist.endsWith('/') ? dist : `${dist}/`).href);
  const server = await startMock({ seed: 'bench', quiet: true });
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const get = () =>
    new Promise((resolve, reject) => {
      http
        .get(`${server.url}${path}`, { agent }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  const heapBefore = process.memoryUsage().heapUsed;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + s * 1000;
  let done = 0;
  const worker = async () => {
    while (done < requests && performance.now() < deadline) {
      done++;
      await get();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  globalThis.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  agent.destroy();
  await server.close();
  return {
    requests: done,
    perSecond: Math.round(done / elapsed),
    perCpuSecond: Math.round(done / cpuSeconds),
    heapGrowthMiB: (heapAfter - heapBefore) / 2 ** 20,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureMock();
  console.log(
    `emulator: ${r.perSecond} requests/s, ${r.perCpuSecond} per CPU-second ` +
      `(${r.requests} requests of ${path}, ${concurrency} at a time); ` +
      `heap ${r.heapGrowthMiB >= 0 ? '+' : ''}${r.heapGrowthMiB.toFixed(1)} MiB after the run`,
  );
}
