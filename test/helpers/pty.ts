// fcast on a real terminal: bin/fcast.js under util-linux `script`, which gives it a pty of a
// chosen size, so colour, spinners and width are what a person sees. Tests that need it are
// skipped where `script` is absent. The bytes the terminal receives are replayed by `screen`
// into the lines it would show.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { BIN, tempDir } from './cli.js';

export const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

/** A word as a POSIX shell reads it back. */
export const shellQuote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

export interface PtyOptions {
  env?: Record<string, string>;
  columns?: number;
  rows?: number;
  /** A shell pipeline after fcast (`| cat`): stdout a pipe, stderr still the terminal. */
  pipeTo?: string;
  /** Sees the terminal's output as it comes, and may type into it (`type('\x03')` is Ctrl-C). */
  onOutput?: (output: string, type: (keys: string) => void) => void;
}

export interface PtyRun {
  code: number | null;
  /** Every byte the terminal received, escape sequences and all (line ends as CR LF). */
  output: string;
}

/** `fcast ARGS` on a pty of `columns` x `rows` (80 x 40 unless told), with `env` only (and PATH, TERM). */
export function runOnPty(args: string[], opts: PtyOptions = {}): Promise<PtyRun> {
  const line = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  const command = `stty cols ${opts.columns ?? 80} rows ${opts.rows ?? 40}; ${opts.pipeTo ? `${line} ${opts.pipeTo}` : `exec ${line}`}`;
  const child: ChildProcess = spawn('script', ['-qefc', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', FCAST_CONFIG_DIR: tempDir(), ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const type = (keys: string) => child.stdin?.write(keys);
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    output += d;
    opts.onOutput?.(output, type);
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, output });
    });
  });
}

/** Colour and the other SGR sequences removed: the text as read. */
export const withoutColour = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * The lines a terminal shows after receiving `output`: CR returns to the line's start, LF goes
 * down, `ESC [2K` and `ESC [K` clear, colour is dropped, and text overwrites what was there.
 */
export function screen(output: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const tokens = output.match(/\x1b\[[0-9;?]*[A-Za-z]|\x1b.|[\s\S]/gu) ?? [];
  for (const token of tokens) {
    const current = lines[row]!;
    if (token === '\r') col = 0;
    else if (token === '\n') {
      row++;
      if (lines[row] === undefined) lines.push([]);
    } else if (token === '\x1b[2K') lines[row] = [];
    else if (token === '\x1b[K' || token === '\x1b[0K') current.length = Math.min(current.length, col);
    else if (token.startsWith('\x1b')) continue;
    else if (token === '\b') col = Math.max(0, col - 1);
    else {
      while (current.length < col) current.push(' ');
      current[col++] = token;
    }
  }
  return lines.map((cells) => cells.join('').trimEnd());
}
