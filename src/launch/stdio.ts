// The bottom of the output boundary: what main's redacted writers write to (core/sinks.ts
// wraps these), and the fast paths' own writes of fixed text. On a pipe, a socket or a file:
// fs.writeSync to the descriptor, without building Node's stream (for a pipe, a socket object
// and the net and stream modules: more CPU than the rest of a short command's own work).
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import type { Stats } from 'node:fs';
import type { Stdio, Writer } from '../core/context.js';
import { ExitCode, systemReason } from '../core/errors.js';

/** What stdioWriter writes to a pipe or a socket itself before it hands over to Node's stream. */
const SYNC_BYTES = 16 * 1024;

/**
 * Exit 3 (ExitCode.Config, "auth or config"): output that cannot be written is a fault of the
 * place the user sends it (a full disk, a closed descriptor), to be fixed there like an
 * unwritable config file or journal directory; not a bug of fcast (1), and not the service (6).
 */
export const WRITE_FAILED = ExitCode.Config;

type Fd = 1 | 2;
type NodeStream = NodeJS.WriteStream;

/** The one line for stdout refusing the data (a full disk, a closed descriptor): the fast paths and main alike. */
export function writeFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return `fcast: cannot write the output to stdout: ${systemReason(code) ?? code ?? 'unknown error'}\n`;
}

/** The fast paths' write to fd 1: building process.stdout costs more CPU than everything else they do. */
export function writeOut(text: string | Buffer): void {
  let rest = Buffer.from(text);
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync(1, rest));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    // A non-blocking pipe that is full: let the stream queue the rest. A reader that left is no error.
    if (code === 'EAGAIN') process.stdout.write(rest);
    else if (code !== 'EPIPE') {
      process.stderr.write(writeFailure(err));
      process.exitCode = WRITE_FAILED;
    }
  }
}

/** The one line of an error that escaped main (a bug): main itself reports every other. */
export function writeInternalError(err: unknown): void {
  process.stderr.write(`fcast: internal error: ${(err as Error | undefined)?.message ?? err}\n`);
}

/** Whether the descriptor is a pipe, a socket or a file: what is written without Node's stream. */
export function plainDescriptor(fd: number): Stats | undefined {
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch {
    return undefined;
  }
  return stat.isFIFO() || stat.isSocket() || stat.isFile() ? stat : undefined;
}

/**
 * main's stdio: both writers, and stdout's release (`fcast mock --print-env`). A write error
 * of either reaches `onError` on the next tick, as the stream's 'error' event would.
 */
export function realStdio(onError: (fd: Fd, err: NodeJS.ErrnoException) => void): {
  stdio: Stdio;
  /** Resolves when what is queued on stderr is written. */
  stderrFlushed(): Promise<void>;
  /** Resolves when what is queued on both is written. */
  flushed(): Promise<unknown>;
} {
  const stdout = stdioWriter(1, onError);
  const stderr = stdioWriter(2, onError);
  // Node never closes fd 1 itself, so it is closed here and /dev/null takes its number for later writes.
  const releaseStdout = () =>
    stdout.flushed().then(() => {
      closeSync(1);
      openSync('/dev/null', 'w');
    });
  return {
    stdio: { stdout: stdout.writer, stderr: stderr.writer, releaseStdout },
    stderrFlushed: stderr.flushed,
    flushed: () => Promise.all([stdout.flushed(), stderr.flushed()]),
  };
}

/**
 * What main writes to fd 1 or 2, and a promise of it being written: to a pipe, a socket or a
 * file with fs.writeSync; through Node's stream (process.stdout, process.stderr) once anything
 * asks for it, and from the start for a terminal (its size, its events) or anything else (a
 * closed descriptor, /dev/full): from then on every write goes through it, in order.
 */
export function stdioWriter(
  fd: Fd,
  onError: (fd: Fd, err: NodeJS.ErrnoException) => void,
): { writer: Writer; flushed(): Promise<void> } {
  const name = fd === 1 ? 'stdout' : 'stderr';
  let stream: NodeStream | undefined;
  const built = (s: NodeStream) => {
    stream = s;
    stream.on('error', (err: NodeJS.ErrnoException) => onError(fd, err));
    return stream;
  };
  // process.stdout is a getter that builds the stream on first use: whoever uses it first
  // (this writer, an emulator's log), the writer goes through it from then on.
  const own = Object.getOwnPropertyDescriptor(process, name);
  const stat = plainDescriptor(fd);
  const ownGet = own?.get;
  if (stat === undefined || own === undefined || typeof ownGet !== 'function') {
    const node = built(process[name]);
    return { writer: node, flushed: () => flushed(node) };
  }
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      const node = stream ?? built(ownGet.call(process));
      Object.defineProperty(process, name, { ...own, get: () => node });
      return node;
    },
  });
  let failed = false;
  // A write to a pipe or a socket whose reader lags blocks until it reads, where Node's stream
  // queues it and the event loop goes on (an emulator's log, a watch's lines): past the first
  // SYNC_BYTES, which a pipe's buffer holds whatever the reader does, the stream.
  let room = stat.isFile() ? Number.POSITIVE_INFINITY : SYNC_BYTES;
  const writer: Writer & { fd: number } = {
    fd,
    isTTY: false,
    write(chunk: string | Uint8Array) {
      if (stream !== undefined) return stream.write(chunk);
      if (failed) return false;
      let rest = Buffer.from(chunk);
      room -= rest.length;
      if (room < 0) return process[name].write(rest);
      try {
        while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
      } catch (err) {
        // A non-blocking pipe that is full: the stream queues the rest, and all that follows.
        if ((err as NodeJS.ErrnoException | undefined)?.code === 'EAGAIN') return process[name].write(rest);
        failed = true;
        process.nextTick(onError, fd, err);
        return false;
      }
      return true;
    },
  };
  return { writer, flushed: () => (stream === undefined ? Promise.resolve() : flushed(stream)) };
}

/** Resolves when what is still queued on the stream is written. */
function flushed(stream: NodeStream): Promise<void> {
  // Only what is still queued: an empty write to a full device fails (ENOSPC) like any other.
  return stream.writableLength === 0 ? Promise.resolve() : new Promise((resolve) => stream.write('', () => resolve()));
}
