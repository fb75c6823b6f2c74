#!/usr/bin/env node
// `npm run bench`: fcast against the floor, every case run in turn in each round (the order
// rotating), so a noisy machine slows both sides of a pair alike; quoted as min, median and
// max, and as ratios taken pair by pair within a round.
//   fcast --version              vs  node -e 0
//   fcast __complete-symbols     vs  node -e 0        (TAB, with a cached symbols list)
//   fcast --help                 vs  node -e 0        (the whole command tree)
//   fcast config list            vs  node -e 0        (no request, no journal)
//   journal report --offline     vs  node -e 0        (an empty journal: no request, no lock)
//   fcast demo --json            vs  a minimal node:http client printing the same body
//   fcast demo (table)           vs  the same client
//   entry alone                  vs  node -e 0        (the floor: the entry every command loads,
//   entry + client               vs  the client        with its cache, and nothing run; an OVER
//                                                      GOAL line names the floor under its goal)
//   fcast predict, 20 symbols    vs  1 symbol, each answer 50 ms late (--json and table)
//   fcast predict --record       vs  fcast predict, with a journal of a million forecasts (goal: +10 ms)
//   fcast journal report         over that journal (goals: 3 s, 300 MiB), after `journal import`
//                                of a million-row export (timed once, scripts/bench-journal.js),
//                                run beside eight `predict --record` loops: none may wait 1 s
//                                for the lock nor fail to record
//   fcast journal report varied  over a million forecasts of varied shape (50 symbols, three
//                                timeframes, eight months, whole and 17-digit prices; goals
//                                1.5 s, 300 MiB)
//   fcast journal report engines over the million of `journal report 1M` with every engine
//                                recorded (the larger lines of journal version 3), imported
//                                alone (no recorders beside it); goals 1.5 s, 300 MiB
//   fcast journal compare        over that same journal: ia2, ia3 and climatology compared, the
//                                2,000-replicate bootstrap included; goals 2 s, 400 MiB
// NODE_OPTIONS and NODE_EXTRA_CA_CERTS are cleared for every process: a CA bundle in
// NODE_EXTRA_CA_CERTS slows every Node 20 start and would flatter every ratio (by how much:
// docs/decisions/2026-11-25-shape-predicates-over-zod4.md).
// Side by side with the installed package and the standalone executable, when it is built
// (`npm run build:sea`): fcast --version and demo --json as `npm install -g` of the tarball
// runs them (no build cache beside the bundle) and as dist/sea/fcast runs them, with node -e 0.
// Each process reports its own CPU time and peak memory through the same preload
// (bench-rss.cjs), so memory is compared process to process.
// Then the redactor over a 16 MiB body (scripts/bench-redact.js; goal 1 s, linear in the size).
// Then a watch's memory over 1,000 refreshes, piped (NDJSON, tables) and on a terminal (the
// board), driven by a fake clock against an emulator whose clock runs (scripts/bench-watch.js).
// Then the emulator's requests/s under a bounded load loop (scripts/bench-mock.js).
// Last, `fcast mcp`: first answer, a warm call, idle RSS and its growth (scripts/bench-mcp.js).
// Per case: the median time to the first byte on stdout, and what the run loaded (builtins,
// JavaScript files and their bytes, code caches: bench-rss.cjs). The last lines name every ratio
// over its goal, and every absolute goal missed (the journal reports' time and peak memory).
// BENCH_FILES=1 lists the files each case read.
// BENCH_RUNS=N sets the rounds (default 15; about a minute on a quiet 2-core machine).
// BENCH_ONLY=regex keeps the cases whose names match (and the pairs of two kept cases) and
// skips the emulator load, for a quick look at one change: `BENCH_ONLY=predict npm run bench`.
// BENCH_VS=name=path/to/bin/fcast.js[,name2=...] runs another build (another checkout, built)
// in the same rounds: its demo and predict cases, their ratios to the client and to this build
// pair by pair. How a change is judged on a loaded machine: `BENCH_VS=main=../main/bin/fcast.js`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.env.BENCH_RUNS ?? 15);
const LATENCY_MS = 50;
const fcast = fileURLToPath(new URL('../bin/fcast.js', import.meta.url));
const preload = fileURLToPath(new URL('./bench-rss.cjs', import.meta.url));
const { startMock } = await import('../dist/mock/index.js');
const { writeSymbolsCache } = await import('../dist/completion/symbols-cache.js');
const { Redactor } = await import('../dist/core/redact.js');

// A fixed clock: every answer is the same in every round, so outputs can be compared.
const now = () => Date.UTC(2026, 0, 15, 15, 30);
const server = await startMock({ seed: 'bench', quiet: true, now });
const slow = await startMock({
  seed: 'bench',
  quiet: true,
  now,
  faults: [{ kind: 'slow', delayMs: LATENCY_MS, path: 'predictions.php' }],
});
const work = mkdtempSync(join(tmpdir(), 'fcast-bench-'));

const symbols = await fetch(`${server.url}/api/agent/v1/symbols.php`, {
  headers: { authorization: `Bearer ${server.testKey}` },
})
  .then((r) => r.json())
  .then((body) => body.symbols.map((s) => s.symbol));
writeSymbolsCache(work, symbols, new Redactor());
// The emulator's free tier lists a few symbols; twenty requests cycle through them.
const twenty = Array.from({ length: 20 }, (_, i) => symbols[i % symbols.length]);

const client = join(work, 'client.cjs');
const clientSource = `const http = require('node:http');
http.get(${JSON.stringify(`${server.url}/api/agent/v1/demo.php?symbol=BTC%2FUSD`)}, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (body += c));
  res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'));
});
`;
writeFileSync(client, clientSource);
// The floor under the goals: what every command but the launcher's fast paths loads before it does any
// work of its own (the split bundle's entry, through the launcher's loader, with its code cache: commander,
// the settings, the output layer), and nothing else; then, for the demo's floor, the client's work.
// A goal under its floor cannot be met by what a command does, only by a smaller entry.
const floorSource = `const dist = ${JSON.stringify(fileURLToPath(new URL('../dist', import.meta.url)))};
const { loadSplit } = require(dist + '/launch.cjs');
if (!require('node:fs').existsSync(dist + '/split/fcast.cjs')) throw new Error('no split bundle: npm run build');
loadSplit(dist + '/split/fcast.cjs', require);
`;
const entryAlone = join(work, 'entry-alone.cjs');
writeFileSync(entryAlone, floorSource);
const entryClient = join(work, 'entry-client.cjs');
writeFileSync(entryClient, floorSource + clientSource);

const base = { FCAST_BASE_URL: server.url, FCAST_API_KEY: server.testKey, FCAST_CONFIG_DIR: work };
const slowEnv = { ...base, FCAST_BASE_URL: slow.url };
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;

// The journal's cases run against an emulator whose clock moves (ten emulated minutes a real
// second), so that every `--record` run meets forecasts it has not recorded yet, with a
// journal of a million forecasts imported first.
const JOURNAL_CLOCK = Date.UTC(2026, 0, 15, 15, 30);
const moving = await startMock({ seed: 'bench', quiet: true, clock: { start: JOURNAL_CLOCK, speed: 600 } });
const journalEnv = { ...base, FCAST_BASE_URL: moving.url, FCAST_DATA_DIR: join(work, 'data') };
// The package as a user installs it: packed, and installed offline into a prefix of the run's own.
const installed = join(work, 'prefix', 'lib', 'node_modules', 'fcast', 'bin', 'fcast.js');
const root = fileURLToPath(new URL('..', import.meta.url));
const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], {
  cwd: root,
  encoding: 'utf8',
});
if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
const install = spawnSync(
  'npm',
  [
    'install',
    '-g',
    join(work, packed.stdout.trim()),
    '--offline',
    '--prefix',
    join(work, 'prefix'),
    '--no-audit',
    '--no-fund',
  ],
  { encoding: 'utf8' },
);
if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`);
const executable = join(root, 'dist', 'sea', 'fcast');
const carried = join(root, 'dist', 'sea', 'built-from');
const sum = (file) =>
  createHash('sha256')
    .update(readFileSync(join(root, file)))
    .digest('hex');
const hasExecutable =
  existsSync(executable) &&
  existsSync(carried) &&
  readFileSync(carried, 'utf8') === `${sum('dist/launch.cjs')} ${sum('dist/fcast.cjs')} ${process.version}\n`;
if (!hasExecutable)
  console.log('no standalone executable of this bundle (npm run build:sea): its cases are left out\n');

const variedEnv = { ...base, FCAST_BASE_URL: moving.url, FCAST_DATA_DIR: join(work, 'varied') };
const enginesEnv = { ...base, FCAST_BASE_URL: moving.url, FCAST_DATA_DIR: join(work, 'engines') };
// BENCH_JOURNAL_RECORDS=N: a smaller journal, to try the journal cases quickly (the goals are for a million).
const JOURNAL_RECORDS = Number(process.env.BENCH_JOURNAL_RECORDS ?? 1_000_000);
const allCases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'fcast --version', args: [fcast, '--version'] },
  { name: 'fcast TAB', args: [fcast, '__complete-symbols'] },
  { name: 'fcast --help', args: [fcast, '--help'] },
  { name: 'installed --version', args: [installed, '--version'] },
  ...(hasExecutable ? [{ name: 'executable --version', exe: executable, args: ['--version'] }] : []),
  { name: 'entry alone', args: [entryAlone] },
  { name: 'fcast config list', args: [fcast, 'config', 'list'] },
  {
    name: 'journal report, empty',
    args: [fcast, 'journal', 'report', '--offline'],
    env: { FCAST_DATA_DIR: join(work, 'empty') },
  },
  { name: 'node:http client', args: [client] },
  { name: 'entry + client', args: [entryClient] },
  { name: 'installed demo --json', args: [installed, 'demo', '--json'] },
  ...(hasExecutable ? [{ name: 'executable demo --json', exe: executable, args: ['demo', '--json'] }] : []),
  { name: 'fcast demo --json', args: [fcast, 'demo', '--json'] },
  { name: 'fcast demo', args: [fcast, 'demo'] },
  { name: 'predict 1 --json', args: [fcast, 'predict', '--json', symbols[0]], env: slowEnv },
  { name: 'predict 20 --json', args: [fcast, 'predict', '--json', ...twenty], env: slowEnv },
  { name: 'predict 1', args: [fcast, 'predict', symbols[0]], env: slowEnv },
  { name: 'predict 20', args: [fcast, 'predict', ...twenty], env: slowEnv },
  { name: 'journal: predict', args: [fcast, 'predict', 'BTC/USD', '--json'], env: journalEnv },
  { name: 'journal: --record', args: [fcast, 'predict', 'BTC/USD', '--json', '--record'], env: journalEnv },
  { name: 'journal report 1M', args: [fcast, 'journal', 'report', '--offline', '--json'], env: journalEnv },
  { name: 'journal report varied', args: [fcast, 'journal', 'report', '--offline', '--json'], env: variedEnv },
  { name: 'journal report engines', args: [fcast, 'journal', 'report', '--offline', '--json'], env: enginesEnv },
  { name: 'journal compare engines', args: [fcast, 'journal', 'compare', '--json'], env: enginesEnv },
];
// [a, b, what is compared, the goal for a / b]
const allPairs = [
  ['fcast --version', 'node -e 0', 'ms', 1.05],
  ['fcast TAB', 'node -e 0', 'ms', 1.1],
  ['fcast --help', 'node -e 0', 'ms', 1.3],
  ['fcast config list', 'node -e 0', 'ms', 1.3],
  ['journal report, empty', 'node -e 0', 'ms', 1.3],
  ['fcast demo --json', 'node:http client', 'ms', 1.2],
  ['fcast demo', 'node:http client', 'ms', 1.3],
  ['entry alone', 'node -e 0', 'ms', undefined],
  ['entry + client', 'node:http client', 'ms', undefined],
  ['installed --version', 'node -e 0', 'ms', undefined],
  ['executable --version', 'node -e 0', 'ms', undefined],
  ['executable --version', 'installed --version', 'ms', 1.0],
  ['executable demo --json', 'installed demo --json', 'ms', 1.0],
  ['fcast demo --json', 'node:http client', 'rss', 1.3],
  ['predict 20 --json', 'predict 1 --json', 'ms', 1.5],
  ['predict 20', 'predict 1', 'ms', 1.5],
  ['journal: --record', 'journal: predict', 'ms-diff', 10],
];
/** [case, what, the most it may take: ms of wall time or MiB of peak RSS] */
const absoluteGoals = [
  ['journal report 1M', 'ms', 3000],
  ['journal report 1M', 'rss', 300],
  ['journal report varied', 'ms', 1500],
  ['journal report varied', 'rss', 300],
  ['journal report engines', 'ms', 1500],
  ['journal report engines', 'rss', 300],
  ['journal compare engines', 'ms', 2000],
  ['journal compare engines', 'rss', 400],
];
const compared = allCases.filter((c) => /^(fcast demo|predict 20)/.test(c.name));
for (const vs of (process.env.BENCH_VS ?? '').split(',').filter(Boolean)) {
  const [name, bin] = vs.split('=');
  if (!name || !bin) throw new Error(`BENCH_VS: '${vs}' is not name=path/to/bin/fcast.js`);
  for (const c of compared) {
    const other = `${c.name} [${name}]`;
    allCases.push({ ...c, name: other, args: [bin, ...c.args.slice(1)] });
    const vsClient = allPairs.find(([a, b, what]) => a === c.name && b === 'node:http client' && what === 'ms');
    if (vsClient) allPairs.push([other, 'node:http client', 'ms', vsClient[3]]);
    allPairs.push([other, c.name, 'ms', undefined]);
  }
}
const cases = allCases.filter((c) => only === undefined || only.test(c.name));
const kept = new Set(cases.map((c) => c.name));
const pairs = allPairs.filter(([a, b]) => kept.has(a) && kept.has(b));

const importMismatches = [];
if (
  [...kept].some(
    (name) =>
      name.startsWith('journal:') ||
      name.startsWith('journal report 1M') ||
      name === 'journal report varied' ||
      name === 'journal report engines' ||
      name === 'journal compare engines',
  )
) {
  const { writeJournalExport } = await import('./bench-journal.js');
  // Each journal only when a case kept reads it (BENCH_ONLY): an import of a million takes a minute.
  for (const [env, varied, engines] of [
    [journalEnv, false, false],
    [variedEnv, true, false],
    [enginesEnv, false, true],
  ].filter(([env]) => cases.some((c) => c.env === env))) {
    const exported = join(work, varied ? 'varied-export.csv' : engines ? 'engines-export.csv' : 'journal-export.csv');
    writeJournalExport(exported, JOURNAL_RECORDS, JOURNAL_CLOCK / 1000, { varied, engines });
    const started = Date.now();
    // The export names no origin: its rows are the emulator's, as the records it is read beside.
    const importing = spawn(
      process.execPath,
      [fcast, 'journal', 'import', exported, '--json', '--origin', moving.url],
      {
        env: cleanEnv(env),
      },
    );
    let stdout = '';
    let stderr = '';
    importing.stdout.on('data', (d) => (stdout += d));
    importing.stderr.on('data', (d) => (stderr += d));
    let running = true;
    const status = new Promise((done) =>
      importing.on('close', (code) => {
        running = false;
        done(code);
      }),
    );
    // Beside the first import, eight recorders in a loop: each says how long the lock kept it waiting.
    const waits = [];
    let lost = 0;
    const recorder = async (symbol) => {
      while (running) {
        // Spawned, not spawnSync: the emulator answering it runs in this process.
        const child = spawn(process.execPath, [fcast, 'predict', symbol, '--record', '--json', '--verbose'], {
          env: cleanEnv(env),
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let err = '';
        child.stderr.on('data', (d) => (err += d));
        const code = await new Promise((done) => child.on('close', done));
        const waited = /waited (\d+) ms for the lock/.exec(err);
        if (waited) waits.push(Number(waited[1]));
        if (code !== 0 || /not recorded/.test(err)) lost++;
      }
    };
    const recorders = varied || engines ? [] : symbols.slice(0, 8).map(recorder);
    await Promise.all([status, ...recorders]);
    if ((await status) !== 0) throw new Error(`journal import failed: ${stderr}`);
    const summary = JSON.parse(stdout);
    console.log(
      `journal import of a ${JOURNAL_RECORDS.toLocaleString('en-US')}-row${varied ? ' varied' : engines ? ' engines' : ''} export: ${((Date.now() - started) / 1000).toFixed(1)} s (${summary.forecasts} forecasts, ${summary.settlements} settlements)`,
    );
    if (!varied && !engines) {
      console.log(
        `  beside 8 recorders: ${waits.length} runs, the longest wait for the lock ${Math.max(0, ...waits)} ms, ${lost} not recorded\n`,
      );
      if (lost > 0 || waits.some((w) => w >= 1000))
        importMismatches.push(
          `recorders beside the import: ${lost} not recorded, longest wait ${Math.max(0, ...waits)} ms`,
        );
    }
  }
}

/** The environment of every benchmarked process: this one's, less what would skew it. */
function cleanEnv(extra) {
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS;
  return { ...env, ...extra };
}

async function runOnce(c) {
  const report = join(work, 'usage');
  writeFileSync(report, '');
  const started = process.hrtime.bigint();
  // Asynchronous: the emulators live in this process and must keep answering meanwhile.
  // The executable takes Node's options from NODE_OPTIONS only: the same preload through it.
  const child = spawn(c.exe ?? process.execPath, c.exe ? c.args : ['--require', preload, ...c.args], {
    env: cleanEnv({
      ...base,
      ...c.env,
      FCAST_BENCH_USAGE: report,
      ...(c.exe && { NODE_OPTIONS: `--require ${preload}` }),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let firstByte;
  child.stdout.setEncoding('utf8').on('data', (d) => {
    firstByte ??= Number(process.hrtime.bigint() - started) / 1e6;
    out += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (code !== 0) throw new Error(`${c.name} exited ${code}: ${err}`);
  const [rssKiB, cpuMicros, builtins, files, sourceBytes, cacheBytes, names] = readFileSync(report, 'utf8')
    .trim()
    .split(' ');
  if (err !== '') mismatches.push(`${c.name} wrote to stderr: ${err.split('\n')[0]}`);
  const loaded = { builtins: Number(builtins), files: Number(files), sourceBytes: Number(sourceBytes) };
  Object.assign(loaded, { cacheBytes: Number(cacheBytes), names });
  return { ms, firstByte: firstByte ?? ms, cpu: Number(cpuMicros) / 1000, rss: Number(rssKiB) / 1024, out, loaded };
}

const samples = Object.fromEntries(cases.map((c) => [c.name, []]));
/** The ratios over their goal, said again as the bench's last lines. */
let guard = [];
/** The goals BENCH_ONLY left unmeasured, said too, so that a partial run never reads as all met. */
let unmeasured = [];
const mismatches = [...importMismatches];

/** What each run must print, so a fast wrong answer cannot pass for a fast one. */
function check(outputs) {
  const has = (...names) => names.every((n) => kept.has(n));
  if (has('fcast demo --json', 'node:http client') && outputs['fcast demo --json'] !== outputs['node:http client'])
    mismatches.push('demo --json differs from the client');
  if (has('entry + client', 'node:http client') && outputs['entry + client'] !== outputs['node:http client'])
    mismatches.push('the entry + client differs from the client');
  for (const other of ['installed demo --json', 'executable demo --json'])
    if (has(other, 'fcast demo --json') && outputs[other] !== outputs['fcast demo --json'])
      mismatches.push(`${other} differs from fcast demo --json`);
  if (has('fcast TAB') && !outputs['fcast TAB'].startsWith(`${symbols[0]}\n`))
    mismatches.push('TAB did not list the cache');
  if (has('predict 20 --json')) {
    const array = JSON.parse(outputs['predict 20 --json']);
    if (array.length !== 20 || array.some((b) => b?.ok !== true)) mismatches.push('predict 20 --json: not 20 bodies');
  }
  if (has('predict 20') && (outputs['predict 20'].match(/BTC\/USD/g) ?? []).length < 3)
    mismatches.push('the predict 20 table does not show every BTC/USD row');
  if (has('fcast demo') && !outputs['fcast demo'].includes('BTC/USD'))
    mismatches.push('the demo table shows no BTC/USD');
  // Another build (BENCH_VS) must print what this one prints: the clock is fixed.
  for (const [name, out] of Object.entries(outputs)) {
    const own = name.replace(/ \[[^\]]*\]$/, '');
    if (own !== name && has(own) && out !== outputs[own]) mismatches.push(`${name} differs from ${own}`);
  }
  for (const name of ['journal report 1M', 'journal report varied', 'journal report engines']) {
    if (!has(name)) continue;
    const report = JSON.parse(outputs[name]);
    const total = report.timeframes.reduce((s, t) => s + t.n_settled + t.open + t.unsettleable, 0);
    if (total < JOURNAL_RECORDS) mismatches.push(`${name} counts ${total} forecasts, not ${JOURNAL_RECORDS}`);
  }
  if (has('journal compare engines')) {
    const doc = JSON.parse(outputs['journal compare engines']);
    const settled = doc.timeframes.reduce((s, t) => s + t.n, 0);
    // Nine in ten settled (bench-journal.js), every one with ia2.
    if (settled < 0.85 * JOURNAL_RECORDS) mismatches.push(`journal compare engines compares ${settled} forecasts`);
  }
}

try {
  const started = Date.now();
  for (const c of cases) await runOnce(c); // warm the file cache; not counted
  for (let i = 0; i < runs; i++) {
    const outputs = {};
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(k + i) % cases.length];
      const s = await runOnce(c);
      samples[c.name].push(s);
      outputs[c.name] = s.out;
    }
    check(outputs);
  }
  print((Date.now() - started) / 1000);
} finally {
  await Promise.all([server.close(), slow.close(), moving.close()]);
  rmSync(work, { recursive: true, force: true });
}

// The redactor over a 16 MiB body packed with keys, their spellings, near-keys and hex runs
// (scripts/bench-redact.js), in a child of its own: goal 1 s, and the time linear in the size
// (16 MiB / 1 MiB near 16, where a quadratic redactor's would be near 256: the redactor of
// issue 29 was one, docs/decisions/2026-11-27-redaction.md).
if (only === undefined || only.test('redact')) {
  const script = fileURLToPath(new URL('./bench-redact.js', import.meta.url));
  const child = spawnSync(process.execPath, [script], { env: cleanEnv({}), encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`bench-redact exited ${child.status}: ${child.stderr}`);
  const r = JSON.parse(child.stdout);
  console.log(
    `\n${'redaction'.padEnd(24)}  ${'ms'.padStart(8)}  ${'16 MiB / 1 MiB'.padStart(14)}  ${'masks'.padStart(7)}  goal`,
  );
  console.log(
    `${`${r.mib} MiB of keys and hex`.padEnd(24)}  ${r.ms.toFixed(0).padStart(8)}  ${r.ratio.toFixed(1).padStart(14)}  ${String(r.masks).padStart(7)}  <= 1000 ms ${r.ms <= 1000 ? 'met' : 'NOT met'}; ratio <= 24 ${r.ratio <= 24 ? 'met' : 'NOT met'}`,
  );
}

// A watch's memory: each mode in a child of its own, against an emulator of this process whose
// clock runs 600 times real time (bodies change as the refreshes go). The child runs with V8's
// young generation at its starting size, as a watch refreshing each minute keeps it: its
// back-to-back refreshes would otherwise have V8 grow it once, a step of RSS that is not the
// watch's (bench-watch.js says more).
if (only === undefined || only.test('watch')) {
  const moving = await startMock({ seed: 'bench', quiet: true, clock: { speed: 600 } });
  const script = fileURLToPath(new URL('./bench-watch.js', import.meta.url));
  console.log(
    `\n${'watch, 1,000 refreshes'.padEnd(24)}  ${'RSS MiB before / after'.padStart(22)}  ${'growth'.padStart(9)}  ${'ratio'.padStart(6)}  ${'heap in use'.padStart(11)}  ${'cpu ms/refresh'.padStart(14)}  goal`,
  );
  try {
    for (const mode of ['ndjson', 'table', 'board']) {
      const child = spawn(
        process.execPath,
        ['--expose-gc', '--max-semi-space-size=1', script, mode, moving.url, moving.testKey],
        { env: cleanEnv({}), stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
      const code = await new Promise((resolve) => child.on('close', resolve));
      if (code !== 0) throw new Error(`bench-watch ${mode} exited ${code}`);
      const r = JSON.parse(out);
      const label = { ndjson: 'piped, --json', table: 'piped, tables', board: 'terminal, the board' }[mode];
      const growth = `${r.growthMiB >= 0 ? '+' : ''}${r.growthMiB.toFixed(1)}`;
      const heap = `${r.heapGrowthMiB >= 0 ? '+' : ''}${r.heapGrowthMiB.toFixed(2)}`;
      console.log(
        `${label.padEnd(24)}  ${`${r.rssBeforeMiB.toFixed(1)} / ${r.rssAfterMiB.toFixed(1)}`.padStart(22)}  ${growth.padStart(9)}  ${r.ratio.toFixed(3).padStart(6)}  ${heap.padStart(11)}  ${r.cpuMsPerRefresh.toFixed(2).padStart(14)}  <= +5 MiB ${r.growthMiB <= 5 ? 'met' : 'NOT met'}`,
      );
    }
  } finally {
    await moving.close();
  }
}

// The emulator under load (scripts/bench-mock.js): bounded to 10 s or 20,000 requests.
if (only === undefined) {
  const { measureMock } = await import('./bench-mock.js');
  const load = await measureMock();
  console.log(
    `\nemulator: ${load.perSecond} requests/s, ${load.perCpuSecond} per CPU-second of the emulator (${load.requests} demo requests)`,
  );
}

// `fcast mcp` (scripts/bench-mcp.js, in a child of its own): first answer, warm call, RSS.
if (only === undefined || only.test('mcp')) {
  const script = fileURLToPath(new URL('./bench-mcp.js', import.meta.url));
  const child = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (child.status !== 0) throw new Error(`bench-mcp exited ${child.status}: ${child.stderr}`);
  process.stdout.write(`\n${child.stdout}`);
  for (const line of child.stdout.split('\n'))
    if (line.endsWith('OVER GOAL')) guard.push(line.replace(/\s+OVER GOAL$/, ''));
}

// The guard: the last lines say each ratio over its goal (medians of this run's pairs), and each
// absolute goal missed (the journal reports' time and memory), so a change that slows start-up
// or the report says so where they are measured.
console.log(
  guard.length === 0 && unmeasured.length === 0
    ? '\nevery ratio and absolute goal within its goal'
    : `\n${[...guard.map((line) => `OVER GOAL: ${line}`), ...unmeasured.map((pair) => `NOT MEASURED (BENCH_ONLY): ${pair}`)].join('\n')}`,
);

function print(seconds) {
  const width = Math.max(20, ...cases.map((c) => c.name.length));
  const floor = (samples['node -e 0'] ?? []).map((s) => s.ms);
  console.log(`fcast benchmark: node ${process.versions.node}, ${runs} rounds, ${seconds.toFixed(0)} s`);
  if (floor.length > 0)
    console.log(
      `node -e 0 takes ${median(floor).toFixed(1)} ms (median wall time; NODE_OPTIONS and NODE_EXTRA_CA_CERTS cleared)\n`,
    );
  console.log(
    `${'case'.padEnd(width)}  ${'wall ms min / median / max'.padStart(26)}  ${'cpu ms median'.padStart(13)}  ${'peak RSS MiB'.padStart(12)}`,
  );
  for (const c of cases) {
    const s = samples[c.name];
    const wall = spread(
      s.map((x) => x.ms),
      1,
    );
    console.log(
      `${c.name.padEnd(width)}  ${wall.padStart(26)}  ${median(s.map((x) => x.cpu))
        .toFixed(1)
        .padStart(13)}  ${median(s.map((x) => x.rss))
        .toFixed(1)
        .padStart(12)}`,
    );
  }
  // What each case loaded (the same in every round: the last one's), and when its first byte
  // came. Modules: the source modules in the files of dist/split/ it read (the build's list).
  const holds = JSON.parse(readFileSync(fileURLToPath(new URL('../dist/split-modules.json', import.meta.url)), 'utf8'));
  // Counted once each: a chunk that two packs of a run hold runs once.
  const modules = (names) =>
    new Set(
      names
        .split(',')
        .filter((file) => file.startsWith('split/'))
        .flatMap((file) => (holds[file.slice('split/'.length)] ?? []).map(([input]) => input)),
    ).size;
  console.log(
    `\n${'case'.padEnd(width)}  ${'1st byte ms'.padStart(11)}  ${'builtins'.padStart(8)}  ${'JS files'.padStart(8)}  ${'source KB'.padStart(9)}  ${'cache KB'.padStart(8)}  ${'modules'.padStart(7)}${process.env.BENCH_FILES ? '  files read' : ''}`,
  );
  for (const c of cases) {
    const s = samples[c.name];
    const { builtins, files, sourceBytes, cacheBytes, names } = s[s.length - 1].loaded;
    console.log(
      `${c.name.padEnd(width)}  ${median(s.map((x) => x.firstByte))
        .toFixed(1)
        .padStart(
          11,
        )}  ${String(builtins).padStart(8)}  ${String(files).padStart(8)}  ${(sourceBytes / 1024).toFixed(0).padStart(9)}  ${(cacheBytes / 1024).toFixed(0).padStart(8)}  ${String(modules(names)).padStart(7)}${process.env.BENCH_FILES ? `  ${names}` : ''}`,
    );
  }
  const labelWidth = Math.max(44, ...pairs.map(([a, b]) => a.length + b.length + 3));
  console.log(
    `\n${'ratio, pair by pair'.padEnd(labelWidth)}  ${'wall min / median / max'.padStart(24)}  ${'cpu median'.padStart(10)}  goal`,
  );
  for (const [a, b, what, goal] of pairs) {
    if (what === 'ms-diff') continue;
    const ratios = (key) => samples[a].map((x, i) => x[key] / samples[b][i][key]);
    const label = `${a} / ${b}${what === 'rss' ? ' (peak RSS)' : ''}`;
    const main = what === 'rss' ? ratios('rss') : ratios('ms');
    const cpu = what === 'rss' ? '' : median(ratios('cpu')).toFixed(2);
    const verdict = goal === undefined ? '' : `<= ${goal} ${median(main) <= goal ? 'met' : 'NOT met'}`;
    console.log(`${label.padEnd(labelWidth)}  ${spread(main, 2).padStart(24)}  ${cpu.padStart(10)}  ${verdict}`);
  }
  // Over its goal by wall time (the goals' measure) or by CPU time (steadier on a loaded machine).
  const missed = [];
  for (const [a, b, what, goal] of pairs) {
    if (what === 'ms-diff' || goal === undefined) continue;
    const ratio = (key) => median(samples[a].map((x, i) => x[key] / samples[b][i][key]));
    if (what === 'rss') {
      if (ratio('rss') > goal) missed.push(`${a} / ${b} (peak RSS): ${ratio('rss').toFixed(2)}, goal <= ${goal}`);
    } else if (ratio('ms') > goal || ratio('cpu') > goal)
      missed.push(
        `${a} / ${b}: wall ${ratio('ms').toFixed(2)}, cpu ${ratio('cpu').toFixed(2)}, goal <= ${goal}${floorOf(b)}`,
      );
  }
  // A goal this run did not measure (BENCH_ONLY left one side out) is not a goal met.
  const names = new Set(allCases.map((c) => c.name));
  unmeasured = allPairs
    .filter(([a, b, , goal]) => goal !== undefined && names.has(a) && names.has(b) && kept.has(a) !== kept.has(b))
    .map(([a, b]) => `${a} / ${b}`);
  guard = missed;
  const diffs = pairs.filter(([, , what]) => what === 'ms-diff');
  if (diffs.length > 0)
    console.log(
      `\n${'difference, pair by pair'.padEnd(44)}  ${'wall ms min / median / max'.padStart(24)}  ${'cpu ms'.padStart(10)}  goal`,
    );
  for (const [a, b, , goal] of diffs) {
    const diff = (key) => samples[a].map((x, i) => x[key] - samples[b][i][key]);
    const verdict = `<= +${goal} ms ${median(diff('ms')) <= goal ? 'met' : 'NOT met'}`;
    console.log(
      `${`${a} − ${b}`.padEnd(44)}  ${spread(diff('ms'), 1).padStart(24)}  ${median(diff('cpu')).toFixed(1).padStart(10)}  ${verdict}`,
    );
  }
  const absolutes = absoluteGoals.filter(([name]) => kept.has(name));
  if (absolutes.length > 0) console.log(`\n${'case'.padEnd(44)}  ${'median'.padStart(24)}  ${''.padStart(10)}  goal`);
  for (const [name, what, goal] of absolutes) {
    const values = samples[name].map((x) => x[what]);
    const unit = what === 'ms' ? 'ms wall' : 'MiB peak RSS';
    const verdict = `<= ${goal} ${unit} ${median(values) <= goal ? 'met' : 'NOT met'}`;
    console.log(
      `${name.padEnd(44)}  ${`${median(values).toFixed(0)} ${unit}`.padStart(24)}  ${''.padStart(10)}  ${verdict}`,
    );
    // An absolute goal missed is said again among the last lines, as a ratio over its goal is.
    if (median(values) > goal) guard.push(`${name}: ${median(values).toFixed(0)} ${unit} (median), goal <= ${goal}`);
  }
  console.log(
    mismatches.length === 0
      ? `\noutputs checked in every round${kept.has('node:http client') ? ": fcast demo --json printed exactly the client's body" : ''}`
      : `\nOUTPUT PROBLEMS (${mismatches.length}): ${[...new Set(mismatches)].join('; ')}`,
  );
}

/** What the entry alone costs against the same baseline, where measured: the floor of that goal. */
function floorOf(baseline) {
  const floor = { 'node -e 0': 'entry alone', 'node:http client': 'entry + client' }[baseline];
  if (floor === undefined || !kept.has(floor)) return '';
  const ratio = (key) => median(samples[floor].map((x, i) => x[key] / samples[baseline][i][key]));
  return ` (${floor}: wall ${ratio('ms').toFixed(2)}, cpu ${ratio('cpu').toFixed(2)})`;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function spread(xs, digits) {
  return [Math.min(...xs), median(xs), Math.max(...xs)].map((x) => x.toFixed(digits)).join(' / ');
}
