// The one redactor every byte fcast writes passes through (core/sinks.ts applies it to stdout,
// stderr and every file fcast writes for people): keys it knows (environment, config file,
// proxy URL, just typed) and anything shaped like a key are masked, whether they come from the
// server, a typed argument or an environment variable. The masks hold no JSON-special
// characters, so a JSON document stays valid. The one exception is `register` showing its new
// key once, through `reveal`.
//
// Linear in the text: every spelling of every known secret is found in one pass of one
// Aho-Corasick automaton, and every piece of 12 or more characters of a secret in one pass of
// one suffix automaton; nothing is searched again after a replacement
// (docs/decisions/2026-11-27-redaction.md has the figures; test/property/redact.test.ts holds
// this to a plain reference redactor).
// The spellings and the key shape are secret-spellings.ts; the automata, secret-automata.ts.
import { Scanner } from './secret-automata.js';
import { escapeStart, holdsPiece, maskKeyShapes, secretPart, spellings, WINDOW } from './secret-spellings.js';

/** Shorter known values are not keys worth hunting for (and would mask ordinary words). */
const MIN_KNOWN = 8;

export class Redactor {
  private readonly known = new Set<string>();
  private revealed: string | undefined;
  private loaded = false;
  /** What is hunted for (the known secrets less the revealed one); rebuilt when either changes. */
  private compiled: Hunted | undefined;

  /** `load` gives the keys known at start (environment, config file); read on the first write. */
  constructor(private readonly load: () => Iterable<string | undefined> = () => []) {}

  /** A key to mask from now on (one just typed or issued). */
  add(secret: string | undefined): void {
    const s = secret?.trim();
    if (!s || s.length < MIN_KNOWN || this.known.has(s)) return;
    this.known.add(s);
  }

  /**
   * Whether `secret` is, or holds, a secret fcast already holds (environment, config file, or
   * added this run): the same text, or 12 characters in a row of one's secret part (a key's
   * prefix is every key's of its service: `zz_ag_` and a held key's hex is that key).
   */
  holds(secret: string): boolean {
    this.loadKnown();
    const s = secret.trim();
    if (this.known.has(s)) return true;
    const folded = s.toLowerCase();
    for (const known of this.known) {
      if (holdsPiece(folded, secretPart(known).toLowerCase())) return true;
    }
    return false;
  }

  /**
   * Runs `write` with one key left as it is: `register`'s only showing of a new key (which
   * register first checks is not one held already), and the emulator's own keys.
   */
  reveal(secret: string, write: () => void): void {
    this.revealed = secret;
    try {
      write();
    } finally {
      this.revealed = undefined;
      this.add(secret);
    }
  }

  /**
   * The text with keys masked, judged on the text a person reads. Colour is already applied
   * when a write reaches the redactor, so the plain runs between terminal escape sequences are
   * redacted one by one: an escape's final letter (the `m` of `\x1b[32m`) must never be read as
   * the first letter of a key, which would make register's revealed key look like another one
   * and mask it. A key that colour splits in two (no renderer does; a future one might) is
   * found in the text without its colour, and then that stretch goes out masked and
   * uncoloured: a secret is worth more than its colour. Other sequences (the board's cursor
   * moves, a line cleared) separate what is on either side, as they do on the screen.
   */
  redact(text: string): string {
    this.loadKnown();
    if (!text.includes('\x1b')) return this.redactPlain(text);
    let out = '';
    let from = 0;
    for (const seq of text.matchAll(ESCAPE_SEQUENCE)) {
      if (SGR.test(seq[0])) continue;
      out += this.redactColoured(text.slice(from, seq.index)) + seq[0];
      from = seq.index + seq[0].length;
    }
    return out + this.redactColoured(text.slice(from));
  }

  private loadKnown(): void {
    if (this.loaded) return;
    this.loaded = true;
    for (const secret of this.load()) this.add(secret);
  }

  /** Text and colour (SGR) sequences only: each plain run redacted, unless a key crosses a colour change. */
  private redactColoured(text: string): string {
    if (!text.includes('\x1b')) return this.redactPlain(text);
    let out = '';
    let plain = '';
    let from = 0;
    for (const seq of text.matchAll(ESCAPE_SEQUENCE)) {
      const run = text.slice(from, seq.index);
      out += this.redactPlain(run) + seq[0];
      plain += run;
      from = seq.index + seq[0].length;
    }
    const last = text.slice(from);
    out += this.redactPlain(last);
    plain += last;
    const read = this.redactPlain(plain);
    return read === withoutEscapes(out) ? out : read;
  }

  private hunted(): Hunted {
    const c = this.compiled;
    if (c && c.revealed === this.revealed && c.size === this.known.size) return c;
    const secrets = [...this.known].filter((s) => s !== this.revealed);
    const revealed = this.revealed;
    const parts = secrets.map(secretPart).filter((p) => p.length >= WINDOW && !revealed?.includes(p));
    const windows = new Set<string>();
    for (const part of parts)
      for (let i = 0; i + WINDOW <= part.length; i++) {
        const window = foldText(part.slice(i, i + WINDOW));
        if (!/["\\]/.test(window)) windows.add(window);
      }
    let scan: Scanner | undefined;
    this.compiled = {
      revealed,
      size: this.known.size,
      forms: secrets.flatMap(spellings).map(foldText),
      windows: [...windows],
      scan: () => (scan ??= new Scanner(secrets, parts)),
    };
    return this.compiled;
  }

  /**
   * Text without escape sequences: what a reader sees. Every spelling of a known secret; then
   * key shapes; then pieces of a secret. A text under SHORT (a line, a table, most bodies) is
   * first searched for each spelling and each 12 characters of a secret, natively: when none
   * is there, the automata are not needed, and a run that writes no secret never builds them
   * (a few milliseconds of a cold start).
   */
  private redactPlain(text: string): string {
    const out = this.redactSpelled(text);
    return out.includes('%') ? this.maskEncodedRuns(out) : out;
  }

  /**
   * The runs of text holding a `%XX` escape (a URL, a query value), each read with its ASCII
   * escapes decoded: an encoder may escape any character (`~` as `%7E`, `!` and not `*`, or
   * every one), more spellings than any list holds. Where the decoded run holds a secret, the
   * stretch of the run that differs once masked is replaced by its mask; the rest of the run
   * stays as written, so an escaped quote stays escaped. Each run is read once: linear.
   */
  private maskEncodedRuns(text: string): string {
    let out = '';
    let copied = 0;
    for (let i = text.indexOf('%'); i !== -1; ) {
      let start = i;
      while (start > copied && !endsRun(text.charCodeAt(start - 1))) start--;
      let end = i;
      while (end < text.length && !endsRun(text.charCodeAt(end))) end++;
      const decoded = decodeRun(text, start, end);
      if (decoded !== undefined) {
        const masked = this.redactSpelled(decoded.text);
        if (masked !== decoded.text) {
          // The stretch that changed: what the masks replaced, from the first to the last.
          let head = 0;
          while (head < masked.length && masked[head] === decoded.text[head]) head++;
          let tail = 0;
          while (
            tail < masked.length - head &&
            tail < decoded.text.length - head &&
            masked[masked.length - 1 - tail] === decoded.text[decoded.text.length - 1 - tail]
          )
            tail++;
          // A mask is written whole, as it reads: the letters it shares with the secret (its
          // prefix, its last four) left in their escapes would be the secret's encoded spelling.
          while (head > 0 && isMaskChar(masked.charCodeAt(head - 1))) head--;
          while (tail > 0 && isMaskChar(masked.charCodeAt(masked.length - tail))) tail--;
          const from = decoded.at(head);
          const to = decoded.at(decoded.text.length - tail);
          // Between two masks the stretch holds decoded text (`%22` read as a quote): written
          // escaped again, only the masks' own characters as they are.
          out +=
            text.slice(copied, Math.max(copied, escapeStart(text, from))) +
            reescaped(masked.slice(head, masked.length - tail));
          copied = to;
        }
      }
      i = text.indexOf('%', end);
    }
    return copied === 0 ? text : out + text.slice(copied);
  }

  /** Every spelling of a known secret, key shapes, pieces of a secret: see redactPlain. */
  private redactSpelled(text: string): string {
    if (text === '') return text;
    const h = this.hunted();
    const short = text.length < SHORT;
    let out = text;
    if (h.forms.length > 0 && (!short || has(foldText(out), h.forms))) out = h.scan().maskSpellings(out);
    out = maskKeyShapes(out, this.revealed);
    if (h.windows.length > 0 && (!short || has(foldText(out), h.windows))) out = h.scan().maskPieces(out);
    return out;
  }
}

/** What ends a run of URL text: blanks, quotes, angle brackets, the backtick. */
const endsRun = (c: number): boolean =>
  c <= 0x20 || c === 0x22 || c === 0x27 || c === 0x3c || c === 0x3e || c === 0x60 || c === 0x7f;

/** What a mask shows of a secret (mask(): letters, digits, `_` and `-`). */
const isMaskChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 0x5f || c === 0x2d;

const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;

/** Decoded text back in the run's escapes: all but what a mask is made of (mask(): letters, digits, `_-*.`; `<redacted>` whole). */
const reescaped = (text: string): string =>
  text.replace(/<redacted>|[^A-Za-z0-9_\-*.]/g, (c) => {
    if (c.length > 1) return c;
    const code = c.charCodeAt(0);
    return code < 0x100
      ? `%${code.toString(16).toUpperCase().padStart(2, '0')}`
      : `%u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });

/** A run shorter than this once decoded cannot hold a secret (redact.ts's MIN_KNOWN) nor a key's shape. */
const MIN_RUN = 8;

/**
 * `text[start, end)` with its escapes decoded (`%XX`, and `%uXXXX` as JavaScript's `escape`
 * writes it: `unescape`, natively, which a 16 MiB run needs), and `at(i)`: where the decoded
 * character `i` began in `text` (`at(length)` is `end`); undefined when nothing was decoded
 * or the run is too short to matter.
 */
function decodeRun(text: string, start: number, end: number): { text: string; at(i: number): number } | undefined {
  if (end - start < MIN_RUN) return undefined;
  const run = text.slice(start, end);
  const decoded = unescape(run);
  if (decoded === run || decoded.length < MIN_RUN) return undefined;
  // Read only where a secret was found: once or twice a run that holds one.
  const at = (i: number): number => {
    let p = 0;
    for (let k = 0; k < i; k++) p += escapeLength(run, p);
    return start + p;
  };
  return { text: decoded, at };
}

/** How many characters of `run` from `p` unescape reads as one: 6, 3 or 1. */
function escapeLength(run: string, p: number): number {
  if (run.charCodeAt(p) !== 0x25) return 1;
  const hex = (k: number) => hexValue(run.charCodeAt(k)) >= 0;
  if (p + 5 < run.length && run[p + 1] === 'u' && hex(p + 2) && hex(p + 3) && hex(p + 4) && hex(p + 5)) return 6;
  if (p + 2 < run.length && hex(p + 1) && hex(p + 2)) return 3;
  return 1;
}

/**
 * Below this length, a text is searched natively before any automaton is built or run: built
 * cold, the automata cost a short command more than the native search of a text this long
 * (docs/decisions/2026-11-27-redaction.md has the figures, and why not the earlier 8 KiB).
 */
const SHORT = 256 * 1024;

interface Hunted {
  revealed: string | undefined;
  size: number;
  /** Every spelling of every secret, folded. */
  forms: string[];
  /** Every 12 characters in a row of a secret part, folded, without a quote or backslash. */
  windows: string[];
  /** The automata, built on first need. */
  scan(): Scanner;
}

/** The text with A–Z as a–z, nothing else changed (its length stays). */
const foldText = (text: string): string => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

const has = (text: string, needles: readonly string[]): boolean => needles.some((n) => text.includes(n));

/**
 * The escape sequences fcast itself writes, all CSI (`\x1b[...`): colours, cursor moves, a line
 * cleared, the board's modes. Server and typed text never hold one: the sanitiser removes
 * control characters before anything is rendered. Anything else is read as text, so a key
 * inside it (an OSC hyperlink's target, a window title) is masked like any other.
 */
const ESCAPE_SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]/g;

const withoutEscapes = (text: string): string => text.replace(ESCAPE_SEQUENCE, '');
/** A colour (Select Graphic Rendition) sequence: `\x1b[32m`, `\x1b[38;5;208m`. */
const SGR = /^\x1b\[[0-9;:]*m$/;
