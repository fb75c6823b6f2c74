// Under GitHub Actions, no text fcast did not write may be read by the runner as a workflow
// command. The runner reads each line of a step's stdout and stderr (split at CR and LF) and
// takes it for a command when, left-trimmed, it starts with `::` (syntax v2) or when it
// holds `##[` anywhere (v1); actions/runner's ActionCommand.TryParseV2 and TryParse. So at
// the output boundary a small filter breaks both patterns, visibly, in text of any kind: a
// space goes before the character that would complete one. `::stop-commands::x` at the start
// of a line reads `: :stop-commands::x`, and `##[error]x` anywhere reads `## [error]x`.
// JSON keeps its value instead: the `[` of `##[` is written `\u005b`, and U+0085, U+2028 and
// U+2029 (which some readers take for line breaks) as `\u` escapes; JSON never starts a line
// with `:`. fcast's own annotations pass through writeOwnCommand, the one way past the filter.
// Pure, and stateful only per stream: a pattern split between two writes is still caught.
import type { Env, IO, Writer } from '../core/context.js';

/** Whether the run is a step of GitHub Actions, which sets GITHUB_ACTIONS=true. */
export const inGitHubActions = (env: Env): boolean => env.GITHUB_ACTIONS === 'true';

/** How a stream's text is neutralised: JSON by escapes that change no value, anything else visibly. */
export type NeutralMode = 'json' | 'text';

const LF = 0x0a;
const CR = 0x0d;
const ESC = 0x1b;
const COLON = 0x3a;
const HASH = 0x23;
const BRACKET = 0x5b;

/** Line breaks to some reader: CR and LF (the runner's), and VT, FF, NEL, LS, PS to be safe. */
const isBreak = (c: number) =>
  c === LF || c === CR || c === 0x0b || c === 0x0c || c === 0x85 || c === 0x2028 || c === 0x2029;

/** What a left trim removes (JavaScript's \s, a superset of .NET's Char.IsWhiteSpace but for NEL, a break here). */
const isSpace = (c: number) =>
  c === 0x20 ||
  c === 0x09 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/** What can start a pattern in the middle of a line: a line break, an escape, a `#`. */
const INTEREST = /[\n\r\x0b\x0c\x1b#\u0085\u2028\u2029]/g;

/** The text of one stream, neutralised as it is written. */
export class CommandNeutraliser {
  /** Only blanks (and escape sequences) since the last line break. */
  private atStart = true;
  /** The line so far is blanks and one `:`. */
  private colon = false;
  /** How many `#` in a row just went out (at most 2 counted). */
  private hashes = 0;
  /** 0 outside an escape sequence, 1 just after ESC, 2 inside a CSI one. */
  private esc = 0;

  constructor(public mode: NeutralMode = 'text') {}

  /** The chunk as it may be written, given what went out before it on this stream. */
  push(chunk: string): string {
    let out = '';
    let from = 0;
    const json = this.mode === 'json';
    for (let i = 0; i < chunk.length; i++) {
      if (!this.atStart && !this.colon && this.hashes === 0 && this.esc === 0) {
        // Mid-line, nothing begun: only a line break, an escape or a `#` can matter next.
        INTEREST.lastIndex = i;
        if (!INTEREST.test(chunk)) break;
        i = INTEREST.lastIndex - 1;
      }
      const c = chunk.charCodeAt(i);
      if (this.esc === 1) {
        this.esc = c === BRACKET ? 2 : 0;
        if (this.esc === 2) continue;
      } else if (this.esc === 2) {
        if (c >= 0x40 && c <= 0x7e) this.esc = 0;
        continue;
      }
      if (c === ESC) {
        // Transparent at a line's start (read as a blank, to be safe); it breaks a run of `#`.
        this.esc = 1;
        this.hashes = 0;
        continue;
      }
      if (isBreak(c)) {
        if (json && c > 0x7f) {
          out += `${chunk.slice(from, i)}\\u${c.toString(16).padStart(4, '0')}`;
          from = i + 1;
          this.breakRun();
          continue;
        }
        this.atStart = true;
        this.colon = false;
        this.hashes = 0;
        continue;
      }
      if (c === COLON) {
        this.hashes = 0;
        if (this.colon) {
          // `::` at the start of a line: a space between the two.
          out += `${chunk.slice(from, i)} `;
          from = i;
          this.colon = false;
          this.atStart = false;
        } else if (this.atStart) {
          this.colon = true;
          this.atStart = false;
        } else this.colon = false;
        continue;
      }
      if (c === BRACKET && this.hashes >= 2) {
        out += chunk.slice(from, i) + (json ? '\\u005b' : ' [');
        from = i + 1;
        this.breakRun();
        continue;
      }
      if (isSpace(c)) {
        if (this.colon) this.colon = false;
        this.hashes = 0;
        continue;
      }
      this.atStart = false;
      this.colon = false;
      this.hashes = c === HASH ? Math.min(this.hashes + 1, 2) : 0;
    }
    return out === '' ? chunk : out + chunk.slice(from);
  }

  /** Something other than a blank went out: neither pattern continues. */
  private breakRun(): void {
    this.atStart = false;
    this.colon = false;
    this.hashes = 0;
  }

  /**
   * One of fcast's own workflow commands (`::error title=...::message`), on a line of its own:
   * its leading `::` stands; a `##[` in its message is broken as anywhere else. A line that is
   * not one such command goes through push().
   */
  pushOwn(line: string): string {
    if (!OWN_COMMAND.test(line)) return this.push(line);
    const prefix = this.atStart && !this.colon ? '' : '\n';
    this.breakRun();
    const rest = this.push(line.slice(2));
    return `${prefix}::${rest}`;
  }
}

/** An annotation as annotations.ts writes it: one line, `::name` then properties and `::` and the message. */
const OWN_COMMAND = /^::(?:error|warning|notice)(?: [^\r\n]*)?::[^\r\n]*\n$/;

/** The whole of a text neutralised, as if it were the first thing written on its stream. */
export function neutralise(text: string, mode: NeutralMode): string {
  return new CommandNeutraliser(mode).push(text);
}

/** The key under which a neutralising writer carries its guard, past every wrapper. */
export const WORKFLOW_GUARD = Symbol('fcast.workflowGuard');

export interface WorkflowGuard {
  /** The mode of this stream: stdout is JSON under --json and --format json|jsonl. */
  setMode(mode: NeutralMode): void;
  /** The next write is one of fcast's own workflow commands (set and cleared by writeOwnCommand only). */
  ownNext: boolean;
}

type Guarded = Writer & { [WORKFLOW_GUARD]?: WorkflowGuard };

/** The guard of a writer, through any wrapper that forwards it; undefined outside Actions. */
export const guardOf = (writer: Writer): WorkflowGuard | undefined => (writer as Guarded)[WORKFLOW_GUARD];

/** A writer whose text cannot become a workflow command; everything else is the stream's own. */
function neutralisingWriter(stream: Writer): Writer {
  const neutraliser = new CommandNeutraliser();
  const guard: WorkflowGuard = {
    ownNext: false,
    setMode: (mode) => {
      neutraliser.mode = mode;
    },
  };
  return new Proxy(stream, {
    get(target, prop, receiver) {
      if (prop === WORKFLOW_GUARD) return guard;
      if (prop === 'write') {
        return (chunk: unknown, ...rest: unknown[]) => {
          const own = guard.ownNext;
          guard.ownNext = false;
          const text = typeof chunk !== 'string' ? chunk : own ? neutraliser.pushOwn(chunk) : neutraliser.push(chunk);
          return (target.write as (...a: unknown[]) => unknown)(text, ...rest);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** stdout and stderr neutralised (stdin as it is): what main wraps the streams in under Actions. */
export function neutralisedIO(io: IO): IO {
  return {
    stdout: neutralisingWriter(io.stdout),
    stderr: neutralisingWriter(io.stderr),
    ...(io.releaseStdout && { releaseStdout: io.releaseStdout }),
    get stdin() {
      return io.stdin;
    },
  };
}

/**
 * The one way past the filter: fcast's own annotation line, written through every wrapper
 * (the redactor still masks it). Without a guard (outside Actions, or a test's bare stream), a
 * plain write.
 */
export function writeOwnCommand(writer: Writer, line: string): void {
  const guard = guardOf(writer);
  if (guard) guard.ownNext = true;
  try {
    writer.write(line);
  } finally {
    if (guard) guard.ownNext = false;
  }
}
