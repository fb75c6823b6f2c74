// Reading what a person types or pipes in: a key (never echoed, never an argument) and a
// yes/no answer. Keys come from stdin so that they stay out of the shell history and `ps`.
import type { Reader, Writer } from '../core/context.js';
import { InterruptedError, UsageError } from '../core/errors.js';

/** Far above any key; stops `fcast auth login < /dev/urandom` from eating memory. */
const MAX_PIPED_BYTES = 64 * 1024;

/** Everything piped into stdin, as text; at most MAX_PIPED_BYTES. */
export async function readPiped(stdin: Reader): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_PIPED_BYTES)
      throw new UsageError(`more than ${MAX_PIPED_BYTES / 1024} KiB on stdin; expected one key`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const ENTER = new Set(['\r', '\n']);
const ERASE = new Set(['\x7f', '\b']);
const CTRL_C = '\x03';
const CTRL_D = '\x04';
const CTRL_U = '\x15';
// A terminal may wrap a paste in bracketed-paste markers or send arrow keys: none belong in a key.
const ESCAPE_SEQUENCE = /\x1b\[[0-9;]*[~A-Za-z]/g;

/** What a reader makes of a chunk: wants more, has its answer, or gives up with an error. */
type Step = 'more' | 'done' | Error;

/** Feeds stdin's text to `feed` until it is done, the input ends or Ctrl-C aborts; then lets go of stdin. */
function consume(stdin: Reader, feed: (text: string) => Step, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      signal?.removeEventListener('abort', onAbort);
      stdin.pause();
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer | string) => {
      const step = feed(String(chunk));
      if (step !== 'more') finish(step === 'done' ? undefined : step);
    };
    const onEnd = () => finish();
    const onAbort = () => finish(new InterruptedError());
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    signal?.addEventListener('abort', onAbort, { once: true });
    stdin.resume();
  });
}

/**
 * A line typed on the terminal with echo off (raw mode), like `sudo` or `ssh` ask for a
 * password. Raw mode also swallows Ctrl-C, so it is handled here as an interruption.
 */
export async function readHiddenLine(
  stdin: Reader,
  stderr: Writer,
  prompt: string,
  signal?: AbortSignal,
): Promise<string> {
  stderr.write(prompt);
  const wasRaw = (stdin as { isRaw?: boolean }).isRaw === true;
  stdin.setRawMode?.(true);
  let typed = '';
  const feed = (chunk: string): Step => {
    for (const ch of chunk.replace(ESCAPE_SEQUENCE, '')) {
      if (ENTER.has(ch)) return 'done';
      if (ch === CTRL_C) return new InterruptedError();
      if (ch === CTRL_D && typed === '') return 'done';
      if (ERASE.has(ch)) typed = [...typed].slice(0, -1).join('');
      else if (ch === CTRL_U) typed = '';
      else if (ch >= ' ') typed += ch;
    }
    return 'more';
  };
  try {
    await consume(stdin, feed, signal);
  } finally {
    stdin.setRawMode?.(wasRaw);
    stderr.write('\n');
  }
  return typed;
}

/** One line from stdin, echoed as usual: for answers, not secrets. */
async function readLine(stdin: Reader, signal?: AbortSignal): Promise<string> {
  let typed = '';
  await consume(
    stdin,
    (chunk) => {
      const end = chunk.search(/[\r\n]/);
      typed += end === -1 ? chunk : chunk.slice(0, end);
      return end === -1 ? 'more' : 'done';
    },
    signal,
  );
  return typed;
}

/** Asks on stderr; only `y` or `yes` (any case) is a yes. */
export async function confirm(stdin: Reader, stderr: Writer, question: string, signal?: AbortSignal): Promise<boolean> {
  stderr.write(`${question} [y/N] `);
  const answer = await readLine(stdin, signal);
  return /^\s*y(es)?\s*$/i.test(answer);
}
