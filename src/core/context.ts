// Everything a command may touch of the outside world, passed in rather than reached for,
// so a test can run any command in-process with captured streams, a temporary config
// directory, its own environment and a clock that does not really sleep.
import { closeSync, openSync } from 'node:fs';
import { homeDirectory } from './home-dir.js';
import { readPackageFile } from './package-files.js';
import type { Readable } from 'node:stream';

export interface Writer {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Reader extends Readable {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

export interface IO {
  stdout: Writer;
  stderr: Writer;
  stdin: Reader;
  /**
   * Flushes stdout and lets go of it, so that `$(fcast mock --print-env &)` sees its end while
   * the process goes on; absent in tests, whose streams have no end.
   */
  releaseStdout?(): Promise<void>;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1): the jitter of retry backoff. */
  random(): number;
}

export type Env = Record<string, string | undefined>;

export interface Ctx {
  io: IO;
  env: Env;
  clock: Clock;
  /** Aborted on Ctrl-C: requests and waits stop, and the command ends with exit 130. */
  signal: AbortSignal;
  platform: NodeJS.Platform;
  homedir: string;
  nodeVersion: string;
  /** fcast's own version, from package.json. */
  version: string;
}

export function packageVersion(): string {
  const pkg = JSON.parse(readPackageFile('package.json')) as { version: string };
  return pkg.version;
}

const realClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * stdout and stderr as the launcher gives them (src/launch/stdio.ts): on a pipe or a file, written to the descriptor
 * without building Node's streams (a pipe's is the dearest part of a short command's start:
 * docs/decisions/2026-11-27-startup.md); Node's own without it.
 */
export interface Stdio {
  stdout: Writer;
  stderr: Writer;
  releaseStdout(): Promise<void>;
}

/**
 * The context of this process. The launcher gives its stdio and fcast's version (read beside
 * it: finding package.json from this module's URL, and asking node:sea whether this is the
 * standalone executable, showed in a short command's profile: docs/decisions/2026-11-27-startup.md);
 * without them, Node's streams and the package file.
 */
export function realContext(signal: AbortSignal, stdio?: Stdio, version?: string): Ctx {
  return {
    io: {
      stdout: stdio?.stdout ?? process.stdout,
      stderr: stdio?.stderr ?? process.stderr,
      // A getter: process.stdin is dear to build (docs/decisions/2026-11-27-startup.md), and
      // only a few commands read it.
      get stdin() {
        return process.stdin;
      },
      releaseStdout: stdio?.releaseStdout ?? releaseStdout,
    },
    env: process.env,
    clock: realClock,
    signal,
    platform: process.platform,
    homedir: homeDirectory(process.env, process.platform),
    nodeVersion: process.versions.node,
    version: version ?? packageVersion(),
  };
}

/** Node never closes fd 1 itself: close it, and let /dev/null take its number for later writes. */
function releaseStdout(): Promise<void> {
  return new Promise((resolve) =>
    process.stdout.write('', () => {
      closeSync(1);
      openSync('/dev/null', 'w');
      resolve();
    }),
  );
}
