// A few runs of the real executable, to prove the packaging: bin/fcast.js, the built dist/,
// `fcast mock` as a separate process, signals and exit codes as a shell sees them.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSymbolsCache, symbolsCachePath, writeSymbolsCache } from '../src/completion/symbols-cache.js';
import { Redactor } from '../src/core/redact.js';
import { BIN, spawnFcast, tempDir } from './helpers/cli.js';

const fcast = (args: string[], env: Record<string, string> = {}, onSpawn?: (child: ChildProcess) => void) =>
  spawnFcast(args, env, { onSpawn });

let mock: ChildProcess;
let env: Record<string, string> = {};

beforeAll(async () => {
  mock = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--seed', 'smoke'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  mock.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    mock.stdout!.on('data', (d: string) => {
      text += d;
      const url = /^export FCAST_BASE_URL=(\S+)$/m.exec(text);
      const key = /^export FCAST_API_KEY=(\S+)$/m.exec(text);
      if (url && key) {
        env = { FCAST_BASE_URL: url[1]!, FCAST_API_KEY: key[1]! };
        resolve();
      }
    });
    mock.once('exit', (code) => reject(new Error(`fcast mock exited early (${code})`)));
  });
  // The emulator prints its test key masked (the redactor); a key registered now is whole.
  const registered = await fetch(`${env.FCAST_BASE_URL}/api/agent/v1/register.php`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'smoke@example.com' }),
  });
  env.FCAST_API_KEY = ((await registered.json()) as { api_key: string }).api_key;
});

afterAll(async () => {
  if (mock.exitCode === null) {
    mock.kill('SIGTERM');
    await once(mock, 'exit');
  }
});

describe('the fcast executable', () => {
  it('prints its version with --version and -V, and help with -h, on stdout', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await fcast([flag]);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    }
    const help = await fcast(['demo', '-h']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: fcast demo/);
  });

  it('shows a demo table from the emulator, attribution last', async () => {
    const r = await fcast(['demo'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.trimEnd().split('\n').slice(-3).join('\n')).toMatch(
      /Source: .+\nTier: demo · data delayed 60 min$/,
    );
  });

  it('prints the body with --json', async () => {
    const r = await fcast(['--json', 'demo', 'ETH/USD'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, symbol: 'ETH/USD' });
  });

  it('predicts many symbols at once with nothing on stderr (no listener-leak warning)', async () => {
    const symbols = Array.from({ length: 12 }, (_, i) => ['BTC/USD', 'ETH/USD', 'EUR/USD'][i % 3]!);
    const r = await fcast(['predict', '--json', ...symbols], env);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toHaveLength(12);
  });

  it('exits 2 for a symbol off the demo list', async () => {
    const r = await fcast(['demo', 'XRP/USD'], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fcast: /);
  });

  it('exits 2 for an unknown command, with help on stdout for --help', async () => {
    const unknown = await fcast(['frobnicate']);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^fcast: unknown command 'frobnicate'/);
    const help = await fcast(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Help topics/m);
    const codes = await fcast(['help', 'exit-codes']);
    expect(codes.code).toBe(0);
    expect(codes.stdout).toMatch(/^ +8 {2}check failed/m);
  });

  it('exits 6 when nothing listens at the base URL', async () => {
    const r = await fcast(['demo', '--retries', '0'], { FCAST_BASE_URL: 'http://127.0.0.1:9' });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/refused/);
  });

  it('exits 130 on Ctrl-C during a slow request', async () => {
    const slow = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--fault', 'slow,delay=10000'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [chunk] = (await once(slow.stdout!, 'data')) as [Buffer];
    const url = /FCAST_BASE_URL=(\S+)/.exec(chunk.toString())![1]!;
    // Interrupt once the emulator holds the request, not after a guessed delay.
    const r = await fcast(['demo'], { FCAST_BASE_URL: url }, (child) => {
      const poll = async (): Promise<void> => {
        const seen = (await (await fetch(`${url}/__mock/requests`)).json()) as { count: number };
        if (seen.count > 0) child.kill('SIGINT');
        else setTimeout(poll, 20);
      };
      void poll();
    });
    slow.kill('SIGTERM');
    await once(slow, 'exit');
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
  });

  it('fcast mock stops cleanly on SIGTERM', async () => {
    const m = spawn(process.execPath, [BIN, 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await once(m.stdout!, 'data');
    m.kill('SIGTERM');
    const [code] = await once(m, 'exit');
    expect(code).toBe(0);
  });
});

describe('a command group without its subcommand', () => {
  it('prints the help on stderr and exits 2 (a group alone: one line and its help named); asking for help prints it on stdout and exits 0', async () => {
    const bare = await fcast([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toMatch(/^Usage: fcast/);
    for (const group of ['auth', 'config']) {
      const r = await fcast([group]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(`^fcast: 'fcast ${group}' needs a command: .*\n {2}hint: see 'fcast ${group} --help'\n$`),
      );
    }
    const asked = await fcast(['help', 'demo']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/^Usage: fcast demo/);
  });
});

describe('TAB (the completion scripts run `fcast __complete-symbols`)', () => {
  it('prints the cached symbols, one per line, and nothing else', async () => {
    const dir = tempDir();
    writeSymbolsCache(dir, ['BTC/USD', 'ETH/USD'], new Redactor());
    const r = await fcast(['__complete-symbols'], { ...env, FCAST_CONFIG_DIR: dir });
    expect(r).toMatchObject({ code: 0, stdout: 'BTC/USD\nETH/USD\n', stderr: '' });
  });

  it('with no cache, a service and a key, fills the cache in the background', async () => {
    const dir = tempDir();
    const r = await fcast(['__complete-symbols'], { ...env, FCAST_CONFIG_DIR: dir });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // The detached refresh ends on its own; wait for its file, not for a guessed time.
    while ((readSymbolsCache(dir)?.symbols.length ?? 0) === 0) await delay(50);
    expect(JSON.parse(readFileSync(symbolsCachePath(dir), 'utf8')).symbols).toContain('BTC/USD');
  });
});
