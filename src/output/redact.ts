// The one redactor every line fcast writes passes through (main wraps stdout and stderr with
// it): keys it knows (environment, config file, just typed) and anything shaped like a key are
// masked, whether they come from the server, a typed argument or an environment variable.
// The masks hold no JSON-special characters, so a JSON document stays valid. The one
// exception is `register` showing its new key once, through `reveal`.
import type { IO, Writer } from '../core/context.js';

/** Shorter known values are not keys worth hunting for (and would mask ordinary words). */
const MIN_KNOWN = 8;
/** No 12 characters in a row of a known secret may be shown. */
const WINDOW = 12;

/** `mfa_ag_1a2b...9f0e`, or the ends of a run of hex: enough to tell two keys apart, never 12 characters in a row. */
function mask(text: string): string {
  const cut = text.indexOf('_ag_');
  // Nothing of a key that JSON or a shell would treat specially: a mask never breaks a document.
  const plain = (part: string) => part.replace(/[^A-Za-z0-9_-]/g, '*');
  if (cut >= 0) return `${plain(text.slice(0, cut + 8))}...${plain(text.slice(-4))}`;
  if (text.length >= 16) return `${plain(text.slice(0, 4))}...${plain(text.slice(-4))}`;
  return '<redacted>';
}

export class Redactor {
  private readonly known = new Set<string>();
  /** The secret parts of known keys: no 12 characters in a row of one may be shown. */
  private readonly parts: string[] = [];
  private revealed: string | undefined;
  private loaded = false;

  /** `load` gives the keys known at start (environment, config file); read on the first write. */
  constructor(private readonly load: () => Iterable<string | undefined> = () => []) {}

  /** A key to mask from now on (one just typed or issued). */
  add(secret: string | undefined): void {
    const s = secret?.trim();
    if (!s || s.length < MIN_KNOWN || this.known.has(s)) return;
    this.known.add(s);
    // The part after `_ag_` is the secret; a prefix is shared by every key of a service.
    const part = s.includes('_ag_') ? s.slice(s.indexOf('_ag_') + 4) : s;
    if (part.length >= WINDOW) this.parts.push(part);
  }

  /** Runs `write` with one key left as it is: `register`'s only showing of a new key. */
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
    if (!this.loaded) {
      this.loaded = true;
      for (const secret of this.load()) this.add(secret);
    }
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

  /** Text without escape sequences: what a reader sees. */
  private redactPlain(text: string): string {
    if (text === '') return text;
    const revealed = this.revealed;
    let out = text;
    for (const secret of this.known) {
      if (secret === revealed) continue;
      for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
        if (out.includes(form)) out = out.split(form).join(mask(secret));
      }
    }
    out = maskKeyShapes(out, revealed);
    // Pieces of a known key: its secret part without the prefix, a key cut by a table cell.
    for (const part of this.parts) if (!revealed?.includes(part)) out = maskPieces(out, part);
    return out;
  }
}

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

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * Masks `<prefix>_ag_` followed by at least 12 hex digits: a key, or enough of one to matter.
 * Found from each `_ag_` outwards; a regular expression starting at every letter is ~50 times slower on a large body.
 */
function maskKeyShapes(text: string, revealed: string | undefined): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('_ag_'); at >= 0; at = text.indexOf('_ag_', at + 4)) {
    let start = at;
    while (start > from && isAlnum(text.charCodeAt(start - 1))) start--;
    let end = at + 4;
    while (end < text.length && isHex(text.charCodeAt(end))) end++;
    // No prefix, no key; unless the key just masked ran up to this one, its hex run taking a
    // prefix of hex letters or digits with it (`...1b94fa_ag_e1d0...`).
    const prefixed = start < at || (at === from && from > 0);
    if (!prefixed || end - at - 4 < WINDOW) continue;
    const found = text.slice(start, end);
    out += text.slice(from, start) + (found === revealed ? found : mask(found));
    from = end;
  }
  return out + text.slice(from);
}

/** Any 12 characters in a row of a key hold one of its 6-character blocks at offsets 0, 6, 12, ... */
const BLOCK = WINDOW / 2;

/**
 * Replaces every stretch of `text` that is 12 or more characters of `part`: native search for
 * each aligned block (7 for a 40-character secret), then the stretch around a hit is measured.
 */
function maskPieces(text: string, part: string): string {
  let out = text;
  // Never into a quote or a backslash: half an escape sequence would break a JSON document.
  const plain = (ch: string | undefined) => ch !== undefined && ch !== '"' && ch !== '\\';
  for (let k = 0; k + BLOCK <= part.length; k += BLOCK) {
    const block = part.slice(k, k + BLOCK);
    if (!/^[^"\\]+$/.test(block)) continue;
    for (let at = out.indexOf(block); at >= 0; at = out.indexOf(block, at + 1)) {
      let start = at;
      let end = at + BLOCK;
      while (plain(out[start - 1]) && part.includes(out.slice(start - 1, end))) start--;
      while (plain(out[end]) && part.includes(out.slice(start, end + 1))) end++;
      // Not a run of digits (a number in a body) nor of 3 characters or fewer (0000...): data,
      // far likelier than a piece of a random key, and masking it would break a JSON number.
      const piece = out.slice(start, end);
      if (end - start < WINDOW || /^\d+$/.test(piece) || new Set(piece).size < 4) continue;
      out = `${out.slice(0, start)}<redacted>${out.slice(end)}`;
      at = start;
    }
  }
  return out;
}

/** A writer that redacts every string written to it; everything else is the stream's own. */
function redactingWriter(stream: Writer, redactor: Redactor): Writer {
  return new Proxy(stream, {
    get(target, prop, receiver) {
      if (prop === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...a: unknown[]) => unknown)(
            typeof chunk === 'string' ? redactor.redact(chunk) : chunk,
            ...rest,
          );
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export function redactedIO(io: IO, redactor: Redactor): IO {
  // stdin is passed through as a getter: process.stdin costs ~10 ms to build, and most
  // commands never read it.
  return {
    stdout: redactingWriter(io.stdout, redactor),
    stderr: redactingWriter(io.stderr, redactor),
    ...(io.releaseStdout && { releaseStdout: io.releaseStdout }),
    get stdin() {
      return io.stdin;
    },
  };
}
