#!/usr/bin/env node
// `npm run bench`: fcast against its baselines, alternating in one run so that a noisy
// machine slows both alike, and reported as median ratios rather than absolute times.
//   fcast --version      vs  node -e 0   (a fast path in bin/fcast.js: no command tree)
//   fcast --help         vs  node -e 0   (the whole command tree built and printed)
//   fcast demo --json    vs  a minimal node:http client making the same request
// Peak memory (maxRSS) of each is measured by the same preload in every process. Last, the
// emulator's requests/s under a bounded load loop.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.env.BENCH_RUNS ?? 15);
const fcast = fileURLToPath(new URL('../bin/fcast.js', import.meta.url));
const preload = fileURLToPath(new URL('./bench-rss.cjs', import.meta.url));
const { startMock } = await import('../dist/mock/index.js');

const server = await startMock({ seed: 'bench', quiet: true });
const work = mkdtempSync(join(tmpdir(), 'fcast-bench-'));
const demoUrl = `${server.url}/api/agent/v1/demo.php?symbol=BTC%2FUSD`;
const httpClient = `
const http = require('node:http');
http.get(${JSON.stringify(demoUrl)}, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (body += c));
  res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'));
});`;

const cases = [
  { name: 'fcast --version', args: [fcast, '--version'] },
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'fcast --help', args: [fcast, '--help'] },
  { name: 'fcast demo --json', args: [fcast, 'demo', '--json'] },
  { name: 'node:http client', args: ['-e', httpClient] },
];
const pairs = [
  ['fcast --version', 'node -e 0'],
  ['fcast --help', 'node -e 0'],
  ['fcast demo --json', 'node:http client'],
];

const env = { ...process.env, FCAST_BASE_URL: server.url, FCAST_CONFIG_DIR: work, NO_COLOR: '1' };
const samples = Object.fromEntries(cases.map((c) => [c.name, { ms: [], rss: [] }]));

async function runOnce(c) {
  const rssFile = join(work, 'rss');
  writeFileSync(rssFile, '');
  const started = process.hrtime.bigint();
  // Async spawn: the emulator lives in this process and must keep answering meanwhile.
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['--require', preload, ...c.args], {
    env: { ...env, FCAST_BENCH_RSS: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stdout.resume();
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise((r) => child.on('close', r));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (code !== 0) throw new Error(`${c.name} exited ${code}: ${err}`);
  return { ms, rss: Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

try {
  for (const c of cases) await runOnce(c); // warm the file cache; not counted
  for (let i = 0; i < runs; i++) {
    // Rotate the order each round so no case always runs first (or last) in a round.
    const order = cases.map((_, k) => cases[(k + i) % cases.length]);
    for (const c of order) {
      const s = await runOnce(c);
      samples[c.name].ms.push(s.ms);
      samples[c.name].rss.push(s.rss);
    }
  }
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}

console.log(`fcast benchmark: ${runs} alternating runs each, node ${process.versions.node}\n`);
console.log('case                  median ms   median maxRSS MiB');
for (const c of cases) {
  const s = samples[c.name];
  console.log(
    `${c.name.padEnd(20)}  ${median(s.ms).toFixed(1).padStart(9)}   ${median(s.rss).toFixed(1).padStart(17)}`,
  );
}
console.log('\nratio (fcast / baseline)                time   memory');
for (const [a, b] of pairs) {
  const t = median(samples[a].ms) / median(samples[b].ms);
  const m = median(samples[a].rss) / median(samples[b].rss);
  console.log(`${`${a} / ${b}`.padEnd(38)}  ${t.toFixed(2).padStart(5)}x  ${m.toFixed(2).padStart(6)}x`);
}

// The emulator under load (scripts/bench-mock.js): bounded to 10 s or 20,000 requests.
const { measureMock } = await import('./bench-mock.js');
const load = await measureMock();
console.log(
  `\nemulator: ${load.perSecond} requests/s, ${load.perCpuSecond} per CPU-second of the emulator (${load.requests} demo requests)`,
);
