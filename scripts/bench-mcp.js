#!/usr/bin/env node
// `fcast mcp` against its goals (issue 42), against an emulator in this process:
//   first answer   spawn to the answer of `initialize`, vs `node -e 0`   (goal: at most 2.5x)
//   warm call      one get_forecasts call in a running server, vs `fcast predict SYMBOL --json`
//                  as a process                                          (goal: at most 0.5x)
//   idle RSS       after initialize and tools/list                       (goal: at most 80 MiB)
//   RSS growth     over 1,000 calls after 2,000 to warm up               (goal: at most 5 MiB)
//                  (V8 sizes its heap over the first ~2,000 calls, ~45 to ~90 MiB, then holds:
//                  a leak grows on; docs/decisions/2026-12-02-mcp-server.md)
// Medians of BENCH_MCP_RUNS rounds (default 9). Linux only for RSS (/proc).
//   node scripts/bench-mcp.js        (after `npm run build`); `npm run bench` runs it too.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.env.BENCH_MCP_RUNS ?? 9);
const fcast = fileURLToPath(new URL('../bin/fcast.js', import.meta.url));
const { startMock } = await import('../dist/mock/index.js');
const server = await startMock({ seed: 'bench', quiet: true, now: () => Date.UTC(2026, 0, 15, 15, 30) });
const work = mkdtempSync(join(tmpdir(), 'fcast-bench-mcp-'));
const env = {
  PATH: process.env.PATH ?? '',
  FCAST_BASE_URL: server.url,
  FCAST_API_KEY: server.testKey,
  FCAST_CONFIG_DIR: join(work, 'config'),
  FCAST_DATA_DIR: join(work, 'data'),
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

/** A process's wall time; spawned, not spawnSync: the emulator answering it runs in this process. */
function wallMs(args) {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve(ms(t0)) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`)),
    ),
  );
}

/** A running `fcast mcp` and a way to send a request and await its answer. */
function startServer() {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [fcast, 'mcp'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let buffered = '';
  let nextId = 1;
  child.stdout.setEncoding('utf8').on('data', (d) => {
    buffered += d;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const m = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
      nl = buffered.indexOf('\n');
    }
  });
  const request = (method, params = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const rssMiB = () => {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
  };
  const stop = () =>
    new Promise((resolve) => {
      child.on('close', resolve);
      child.stdin.end();
    });
  return { t0, request, rssMiB, stop };
}

const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };
const forecastCall = { name: 'get_forecasts', arguments: { symbols: ['BTC/USD'] } };

const floor = [];
const first = [];
const predict = [];
const warm = [];
for (let i = 0; i < runs; i++) {
  floor.push(await wallMs(['-e', '0']));
  const s = startServer();
  await s.request('initialize', initialize);
  first.push(ms(s.t0));
  await s.request('tools/call', forecastCall);
  const t0 = process.hrtime.bigint();
  const answer = await s.request('tools/call', forecastCall);
  warm.push(ms(t0));
  if (answer.result?.isError) throw new Error(`get_forecasts failed: ${answer.result.content[0].text}`);
  await s.stop();
  predict.push(await wallMs([fcast, 'predict', 'BTC/USD', '--json']));
}

const s = startServer();
await s.request('initialize', initialize);
await s.request('tools/list');
const idle = s.rssMiB();
for (let i = 0; i < 2000; i++) await s.request('tools/call', forecastCall);
const before = s.rssMiB();
for (let i = 0; i < 1000; i++) await s.request('tools/call', forecastCall);
const after = s.rssMiB();
await s.stop();
await server.close();
rmSync(work, { recursive: true, force: true });

const lines = [
  [
    'mcp first answer (initialize)',
    median(first),
    'ms',
    `${(median(first) / median(floor)).toFixed(2)}x node -e 0 (${median(floor).toFixed(1)} ms)`,
    median(first) / median(floor) <= 2.5,
  ],
  [
    'mcp warm get_forecasts',
    median(warm),
    'ms',
    `${(median(warm) / median(predict)).toFixed(3)}x predict --json (${median(predict).toFixed(1)} ms)`,
    median(warm) / median(predict) <= 0.5,
  ],
  ['mcp idle RSS', idle, 'MiB', 'goal 80 MiB', idle <= 80],
  [
    'mcp RSS growth, 1,000 calls',
    after - before,
    'MiB',
    `${before.toFixed(1)} -> ${after.toFixed(1)} MiB; goal 5 MiB`,
    after - before <= 5,
  ],
];
for (const [name, value, unit, note, ok] of lines)
  console.log(
    `${name.padEnd(32)} ${value.toFixed(1).padStart(8)} ${unit.padEnd(3)}  ${note}${ok ? '' : '  OVER GOAL'}`,
  );
