// One place for where output goes: data to stdout, people's messages to stderr, colour
// only when it is wanted.
import { createColors } from 'picocolors';
import type { Env, IO } from '../context.js';
import { reindentJson, stringifyJson } from './json.js';
import { cleanBlock } from './sanitize.js';

export type Colors = ReturnType<typeof createColors>;

/** --no-color beats everything; then NO_COLOR, then FORCE_COLOR; else only on a terminal. */
export function colorWanted(flag: boolean | undefined, env: Env, stdoutIsTTY: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false', 'no', 'off'].includes(force.toLowerCase());
  return stdoutIsTTY === true && env.TERM !== 'dumb';
}

export class Output {
  readonly c: Colors;
  constructor(
    readonly io: IO,
    readonly color: boolean,
    readonly verbose: boolean,
  ) {
    this.c = createColors(color);
  }

  get isTTY(): boolean {
    return this.io.stdout.isTTY === true;
  }

  get columns(): number {
    return this.io.stdout.columns ?? 100;
  }

  /** Data: a table or text block, newline-terminated. */
  data(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }

  /** A body as the server sent it. */
  rawJson(raw: string): void {
    this.io.stdout.write(reindentJson(raw) + '\n');
  }

  /** A value of our own making. */
  json(value: unknown): void {
    this.io.stdout.write(stringifyJson(value) + '\n');
  }

  /** A notice for people: stderr, never stdout. */
  note(message: string): void {
    this.io.stderr.write(cleanBlock(message) + '\n');
  }

  warn(message: string): void {
    this.io.stderr.write(`${this.c.yellow('warning:')} ${cleanBlock(message)}\n`);
  }

  /** Only with --verbose. */
  debug(message: string): void {
    if (this.verbose) this.io.stderr.write(this.c.dim(cleanBlock(message)) + '\n');
  }
}
