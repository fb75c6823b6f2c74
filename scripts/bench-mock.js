#!/usr/bin/env node
// The emulator under load: requests/s over keep-alive loopback connections, bounded in count
// and time. The emulator runs in a child process, so its own CPU time per request and its
// heap after the run are measured apart from the client's.
//   node scripts/bench-mock.js [seconds] [requests]     (after `npm run build`)
//   FCAST_BENCH_PATH  the request to repeat (default the keyless demo of BTC/USD)
//   FCAST_BENCH_DIST  the build to load (default ../dist), to compare two builds
// `npm run bench` prints the same figures last.
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const seconds = Number(process.argv[2] ?? process.env.BENCH_MOCK_SECONDS ?? 10);
const limit = Number(process.argv[3] ?? process.env.BENCH_MOCK_REQUESTS ?? 20_000);
const concurrency = 8;
const path = process.env.FCAST_BENCH_PATH ?? '/api/agent/v1/demo.php?symbol=BTC%2FUSD';
const self = fileURLToPath(import.meta.url);

/** The child: an emulator that reports its CPU time and heap when asked. */
async function serve() {
  const dist = process.env.FCAST_BENCH_DIST ?? new URL('../dist/', import.meta.url).href;
  const { startMock } = await import(new URL('mock/index.js', dist.endsWith('/') ? dist : `${dist}/`).href);
  const server = await startMock({ seed: 'bench', quiet: true });
  process.on('message', async (m) => {
    if (m === 'start') process.send({ cpu: process.cpuUsage() });
    if (m === 'stop') {
      const cpu = process.cpuUsage();
      globalThis.gc?.();
      process.send({ cpu, heap: process.memoryUsage().heapUsed });
      await server.close();
      process.exit(0);
    }
  });
  globalThis.gc?.();
  process.send({ url: server.url, heap: process.memoryUsage().heapUsed });
}

export async function measureMock({ seconds: s = seconds, requests = limit } = {}) {
  const child = fork(self, ['--serve'], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  const replies = [];
  const waiters = [];
  child.on('message', (m) => (waiters.length ? waiters.shift()(m) : replies.push(m)));
  const next = () => new Promise((r) => (replies.length ? r(replies.shift()) : waiters.push(r)));
  const { url, heap: heapBefore } = await next();
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const get = () =>
    new Promise((resolve, reject) => {
      http
        .get(`${url}${path}`, { agent }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  child.send('start');
  const { cpu: cpuBefore } = await next();
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
  agent.destroy();
  child.send('stop');
  const { cpu, heap } = await next();
  const cpuSeconds = (cpu.user - cpuBefore.user + cpu.system - cpuBefore.system) / 1e6;
  return {
    requests: done,
    perSecond: Math.round(done / elapsed),
    perCpuSecond: Math.round(done / cpuSeconds),
    heapGrowthMiB: (heap - heapBefore) / 2 ** 20,
  };
}

if (process.argv.includes('--serve')) await serve();
else if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureMock();
  console.log(
    `emulator: ${r.perSecond} requests/s, ${r.perCpuSecond} per CPU-second of the emulator ` +
      `(${r.requests} requests of ${path}, ${concurrency} at a time); ` +
      `its heap ${r.heapGrowthMiB >= 0 ? '+' : ''}${r.heapGrowthMiB.toFixed(1)} MiB after the run`,
  );
}
