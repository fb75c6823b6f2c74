// Runs fcast in-process with captured streams, its own environment, a temporary config
// directory and a clock whose sleeps are recorded instead of waited.
import { setMaxListeners } from 'node:events';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Clock, Ctx, Env, Writer } from '../../src/core/context.js';
import { packageVersion } from '../../src/core/context.js';
import { main, type MainOptions } from '../../src/cli/main.js';
import { afterAll, expect } from 'vitest';

export interface RunOptions {
  env?: Env;
  /** Several strings arrive as several chunks (a key at a prompt, then an answer); a stream, as it is written. */
  stdin?: string | string[] | Readable;
  /** Make stdout, stderr and stdin look like a terminal. */
  tty?: boolean;
  /** The terminal's width (default 120). */
  columns?: number;
  /** A terminal whose size the test changes while the command runs (a resize); wins over `columns`. */
  terminal?: { columns: number; rows: number };
  /** A clock of the test's own (e.g. steppedClock), instead of one whose sleeps return at once. */
  clock?: Clock & { sleeps: number[] };
  /** Sees stdout and stderr as they are written, before the run ends. */
  onStart?(streams: { stdout: { text: string }; stderr: { text: string } }): void;
  configDir?: string;
  /** Milliseconds since the epoch; the clock stands still unless sleeps advance it. */
  now?: number;
  signal?: AbortSignal;
  /**
   * Milliseconds to keep listening after main returns before the streams are read: what a
   * command cut short by Ctrl-C still does behind its exit must show up to be caught.
   */
  linger?: number;
  /** Swap the wire (see App.transport), e.g. to count connection attempts. */
  transport?: MainOptions['transport'];
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Every wait the CLI asked for, in milliseconds. */
  sleeps: number[];
  configDir: string;
}

/** As bin/fcast.js sets it: every request in flight listens to the one signal (predict sends twenty). */
function listenedBy(signal: AbortSignal): AbortSignal {
  setMaxListeners(0, signal);
  return signal;
}

/** Directories made by this test file, removed when it ends (pass or fail). */
const made: string[] = [];
let cleanupRegistered = false;

export function tempDir(prefix = 'fcast-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  if (!cleanupRegistered) {
    cleanupRegistered = true;
    // Registered on first use, from within the file's collection or its tests: vitest runs it
    // after the file's last test. test/helpers/temp-root.ts removes whatever escapes this.
    try {
      afterAll(() => {
        for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
      });
    } catch {
      cleanupRegistered = false;
    }
  }
  return dir;
}

class Capture implements Writer {
  text = '';
  constructor(
    readonly isTTY: boolean,
    private readonly width = 120,
    private readonly terminal?: { columns: number; rows: number },
  ) {}
  get columns(): number {
    return this.terminal?.columns ?? this.width;
  }
  get rows(): number | undefined {
    return this.terminal?.rows;
  }
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

export function fakeClock(start = Date.now()): Clock & { sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    random: () => 0.5,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
  };
}

/**
 * A clock whose sleeps wait until the test moves it: `advance(ms)` wakes, in order, every sleep
 * due by then (letting each sleeper run before the next), and stops at `now + ms`. A sleep's
 * signal wakes it early with its reason, as the real clock does.
 */
export function steppedClock(start = Date.now()) {
  let now = start;
  const sleeps: number[] = [];
  const waiting: Array<{ at: number; wake(): void }> = [];
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    sleeps,
    now: () => now,
    random: () => 0.5,
    sleep(ms: number, signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      return new Promise<void>((resolve, reject) => {
        const entry = {
          at: now + ms,
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(entry);
      });
    },
    /** Sleeps waiting now. */
    get pending(): number {
      return waiting.length;
    },
    async advance(ms: number): Promise<void> {
      const target = now + ms;
      for (;;) {
        await settle();
        waiting.sort((a, b) => a.at - b.at);
        const due = waiting[0];
        if (due === undefined || due.at > target) break;
        waiting.shift();
        now = Math.max(now, due.at);
        due.wake();
      }
      now = target;
      await settle();
    },
  };
}

export async function runCli(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const configDir = opts.configDir ?? tempDir();
  const stdout = new Capture(opts.tty === true, opts.columns, opts.terminal);
  const stderr = new Capture(opts.tty === true, opts.columns, opts.terminal);
  opts.onStart?.({ stdout, stderr });
  const stdin = (
    opts.stdin instanceof Readable ? opts.stdin : Readable.from(opts.stdin === undefined ? [] : [opts.stdin].flat())
  ) as Readable & { isTTY?: boolean };
  stdin.isTTY = opts.tty === true;
  const clock = opts.clock ?? fakeClock(opts.now);
  const ctx: Ctx = {
    io: { stdout, stderr, stdin },
    env: { FCAST_CONFIG_DIR: configDir, ...opts.env },
    clock,
    signal: opts.signal ?? listenedBy(new AbortController().signal),
    platform: 'linux',
    homedir: configDir,
    nodeVersion: process.versions.node,
    version: packageVersion(),
  };
  const code = await main(argv, ctx, { transport: opts.transport });
  if (opts.linger) await new Promise((resolve) => setTimeout(resolve, opts.linger));
  return { code, stdout: stdout.text, stderr: stderr.text, sleeps: clock.sleeps, configDir };
}

/** What a finished run printed; spawned runs fit too (`{ code: r.status, ...r }`). */
export interface Printed {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Asserts the exit code, and when it is wrong shows what the run printed: a bare
 * `expected 2 to be 0` says nothing about why.
 */
export function expectExit(result: Printed, code: number): void {
  const shown = (name: string, text: string) => `--- ${name}${text ? `\n${text.replace(/\n?$/, '\n')}` : ' (empty)\n'}`;
  expect(
    result.code,
    `the run printed\n${shown('stdout', result.stdout)}${shown('stderr', result.stderr)}--- and its exit code`,
  ).toBe(code);
}

/** The real executable, as a user runs it: bin/fcast.js over the bundle `npm test` builds. */
export const BIN = fileURLToPath(new URL('../../bin/fcast.js', import.meta.url));

export interface Spawned extends Printed {
  signal: NodeJS.Signals | null;
}

/**
 * bin/fcast.js in a child process, with PATH, a fresh config directory and `env` only (never
 * this process's environment); `stdin` is written and closed, `onSpawn` sees the child at once
 * (to signal it, or watch its stderr).
 */
export function spawnFcast(
  args: string[],
  env: Record<string, string> = {},
  opts: { stdin?: string; onSpawn?: (child: ChildProcess) => void } = {},
): Promise<Spawned> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', FCAST_CONFIG_DIR: tempDir(), FCAST_DATA_DIR: tempDir(), ...env },
    stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
  opts.onSpawn?.(child);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** A loopback port nothing listens on (it was free a moment ago): a connection to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether process `pid` still runs (signal 0: asks, sends nothing). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
