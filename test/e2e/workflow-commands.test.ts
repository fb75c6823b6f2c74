// Under GITHUB_ACTIONS=true, text a server sends (and the journal keeps) never reads as a
// workflow command: every command that prints server text, in every format, against a server
// that forwards the emulator's answers with their strings rewritten; every line of stdout and
// stderr parsed by the runner's two rules. The only commands found are fcast's own annotations.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExit, runCli, tempDir } from '../helpers/cli.js';
import { FIXED_NOW, useEmulator } from '../helpers/emulator.js';
import { foreignCommands, ownCommands, runnerCommands } from '../helpers/runner-commands.js';
import { rewriteStrings, serveForwarding, serveTampered, type TamperedServer } from '../helpers/tampered.js';

const emu = useEmulator();

/** Both syntaxes, at a line's start, after a newline, after blanks and inside text. */
const PAYLOADS = [
  '::stop-commands::pwned',
  ' \t::error title=Injected::v2 after blanks',
  'x\n::error title=Injected::after a newline',
  'x\r::warning::after a carriage return',
  '##[error]v1 anywhere',
  '::ADD-MASK::upper case',
];

/** Keys whose values the CLI reads to find its way (timeframes, symbols, ids): left alone in one pass, so tables still render. */
const STRUCTURAL = new Set(['symbol', 'tf', 'timeframe', 'direction', 'label', 'status', 'maturity', 'outcome']);

let all: TamperedServer;
let some: TamperedServer;
beforeAll(async () => {
  // Which payload a field gets depends on the field alone: the same request, the same body.
  const payload = (text: string, key: string) => PAYLOADS[(text.length + key.length) % PAYLOADS.length]!;
  // Every string replaced: the harshest, the one the renderers' fallbacks see.
  all = await serveForwarding(emu.server.url, (body) => rewriteStrings(body, payload));
  // Every string but the structural ones suffixed: tables render as usual, with the payloads in their cells.
  some = await serveForwarding(emu.server.url, (body) =>
    rewriteStrings(body, (text, key) => (STRUCTURAL.has(key) ? text : `${text}${payload(text, key)}`)),
  );
});
afterAll(async () => {
  await all?.close();
  await some?.close();
});

/** Each command, its formats, and how many annotations of its own it writes (accuracy's one failed gate). */
const COMMANDS: Array<[string[], readonly string[], number]> = [
  [['demo'], ['table', 'json', 'csv', 'tsv'], 0],
  [['predict', 'BTC/USD', 'ETH/USD'], ['table', 'json', 'csv', 'tsv'], 0],
  [['symbols'], ['table', 'json', 'csv', 'tsv'], 0],
  [['track-record'], ['table', 'json', 'csv', 'tsv', 'markdown'], 0],
  [['accuracy', '--tf', '1h', '--min-settled', '100000'], ['table', 'json', 'csv', 'tsv', 'markdown'], 1],
  [['verify', '1'], ['table', 'json', 'csv', 'tsv'], 0],
  [['cmd', 'macro'], ['table', 'json', 'csv', 'tsv'], 0],
  [['cmd', 'analyze', 'BTC/USD', '1h'], ['table', 'json'], 0],
];

function actionsEnv(base: string): Record<string, string> {
  const dir = tempDir();
  return {
    FCAST_BASE_URL: base,
    FCAST_API_KEY: emu.server.testKey,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_OUTPUT: join(dir, 'output'),
  };
}

/** A JSON document without what changes from one gateway call to the next (its request id, its quota). */
const steady = (text: string): unknown =>
  JSON.parse(text, (key, value: unknown) => (['request_id', 'used', 'remaining'].includes(key) ? undefined : value));

/**
 * The runs' output holds no command but fcast's own annotations, as many on stderr as expected
 * (none on stdout), and the payloads did reach it.
 */
function expectNoForeignCommand(r: { stdout: string; stderr: string }, own: number): void {
  expect(foreignCommands(r.stdout), `stdout:\n${r.stdout}`).toEqual([]);
  expect(foreignCommands(r.stderr), `stderr:\n${r.stderr}`).toEqual([]);
  expect(ownCommands(r.stdout), `stdout:\n${r.stdout}`).toEqual([]);
  expect(ownCommands(r.stderr), `stderr:\n${r.stderr}`).toHaveLength(own);
  expect(`${r.stdout}${r.stderr}`).toMatch(/pwned|v1 anywhere|after a newline|upper case|after blanks/);
}

describe('no workflow command fcast did not write', () => {
  for (const [argv, formats, own] of COMMANDS)
    for (const format of formats)
      it(`${argv.join(' ')} --format ${format}`, async () => {
        for (const server of [all, some]) {
          const args = [...argv, '--format', format, '--retries', '0'];
          const r = await runCli(args, { now: FIXED_NOW, env: actionsEnv(server.url) });
          expectNoForeignCommand(r, own);
          if (format !== 'json' || server !== some) continue;
          // JSON keeps its value: the same document as outside Actions, but for \u escapes.
          const plain = await runCli(args, {
            now: FIXED_NOW,
            env: { FCAST_BASE_URL: server.url, FCAST_API_KEY: emu.server.testKey },
          });
          expect(runnerCommands(plain.stdout).length).toBeGreaterThan(0);
          expect(steady(r.stdout)).toEqual(steady(plain.stdout));
          expect(r.code).toBe(plain.code);
        }
      });

  it('what the journal recorded from such a server: report, list and export in every format', async () => {
    const data = tempDir();
    for (const server of [all, some]) {
      const recorded = await runCli(['predict', 'BTC/USD', 'ETH/USD', '--record'], {
        now: FIXED_NOW,
        env: { ...actionsEnv(server.url), FCAST_DATA_DIR: data },
      });
      expectNoForeignCommand(recorded, 0);
    }
    // Both servers' records: the journal keeps each origin apart unless asked to show them all.
    const runs: string[][] = [
      ...['table', 'json', 'markdown', 'csv', 'tsv'].map((f) => [
        'journal',
        'report',
        '--origin',
        'all',
        '--format',
        f,
      ]),
      ...['table', 'json', 'csv', 'tsv'].map((f) => ['journal', 'list', '--origin', 'all', '--format', f]),
      ...['csv', 'jsonl'].map((f) => ['journal', 'export', '--origin', 'all', '--format', f]),
    ];
    const plainExport = await runCli(['journal', 'export', '--origin', 'all', '--format', 'jsonl'], {
      now: FIXED_NOW,
      env: { FCAST_DATA_DIR: data },
    });
    expect(runnerCommands(plainExport.stdout).length).toBeGreaterThan(0);
    for (const argv of runs) {
      const r = await runCli(argv, { now: FIXED_NOW, env: { ...actionsEnv(all.url), FCAST_DATA_DIR: data } });
      expectNoForeignCommand(r, 0);
      if (argv.at(-1) === 'jsonl') {
        const lines = (text: string) =>
          text
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as unknown);
        expect(lines(r.stdout)).toEqual(lines(plainExport.stdout));
      }
    }
  });
});

describe('the cases measured in issue 29', () => {
  it('a disclaimer ::stop-commands:: before fcast own ::error, and ##[error] in the Protocol cell', async () => {
    const server = await serveForwarding(emu.server.url, (body) => {
      const b = body as { meta?: Record<string, unknown>; protocol?: Record<string, unknown> };
      if (b.meta) b.meta.disclaimer = '::stop-commands::pwned';
      if (b.protocol) b.protocol.id = '##[error]injected';
      return b;
    });
    try {
      const r = await runCli(['accuracy', '--tf', '1h', '--min-settled', '100000'], {
        now: FIXED_NOW,
        env: actionsEnv(server.url),
      });
      expectExit(r, 8);
      const lines = r.stdout.split('\n');
      expect(lines).toContain('Protocol    ## [error]injected · active');
      expect(lines).toContain(': :stop-commands::pwned');
      // fcast's own annotation stands, whole, on a line of its own.
      expect(r.stderr.split('\n')).toContain(
        '::error title=fcast accuracy%3A gate failed (1h)::gate failed: 1h: n_settled 691 is below --min-settled 100000',
      );
      expect(foreignCommands(r.stdout + r.stderr)).toEqual([]);
      expect(ownCommands(r.stdout + r.stderr)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('a forecast whose tf is a command', () => {
  it('predict, and every journal report once it is recorded', async () => {
    const server = await serveForwarding(emu.server.url, (body) =>
      rewriteStrings(body, (text, key) => (key === 'tf' && text === '1h' ? '::stop-commands::x' : text)),
    );
    try {
      const data = tempDir();
      const env = { ...actionsEnv(server.url), FCAST_DATA_DIR: data };
      expectExit(await runCli(['predict', 'BTC/USD', '--record'], { now: FIXED_NOW, env }), 0);
      const report = await runCli(['journal', 'report'], { now: FIXED_NOW, env });
      expectExit(report, 0);
      expect(report.stdout).toMatch(/^: :stop-commands::x {8}0 {2}0\/0\/0 {5}1 /m);
      const exported = await runCli(['journal', 'export'], { now: FIXED_NOW, env });
      // Not at a line's start in CSV: as it is.
      expect(exported.stdout).toMatch(/^BTC\/USD,::stop-commands::x,1795345200,/m);
      // Outside Actions, as it was recorded.
      const plain = await runCli(['journal', 'report'], { now: FIXED_NOW, env: { FCAST_DATA_DIR: data } });
      expect(plain.stdout).toMatch(/^::stop-commands::x {8}0 {2}0\/0\/0 {5}1 /m);
      for (const r of [report, exported]) {
        expect(foreignCommands(r.stdout + r.stderr)).toEqual([]);
        expect(ownCommands(r.stdout + r.stderr)).toEqual([]);
      }
    } finally {
      await server.close();
    }
  });
});

describe('error messages and hints', () => {
  it.each([
    [{ status: 404, body: { title: '##[error]t', detail: 'x\n::stop-commands::y\r::error::z' } }],
    [{ status: 503, body: { ok: false, error: { code: '::error::c', message: '\n::warning::m ##[group]g' } } }],
  ])('a problem body with commands in it: %j', async (served) => {
    const server = await serveTampered(() => served);
    try {
      for (const argv of [
        ['predict', 'BTC/USD'],
        ['cmd', 'macro'],
        ['demo', '--json'],
      ]) {
        const r = await runCli([...argv, '--retries', '0'], { now: FIXED_NOW, env: actionsEnv(server.url) });
        expect(r.code).not.toBe(0);
        expect(`${r.stdout}${r.stderr}`).toMatch(/stop-commands|warning::m|error::c/);
        expect(foreignCommands(r.stdout), r.stdout).toEqual([]);
        expect(foreignCommands(r.stderr), r.stderr).toEqual([]);
        expect(ownCommands(r.stdout + r.stderr)).toEqual([]);
      }
    } finally {
      await server.close();
    }
  });
});
