// The one redactor every line fcast writes passes through (main wraps stdout and stderr with
// it): keys it knows (environment, config file, just typed) and anything shaped like a key are
// masked, whether they come from the server, a typed argument or an environment variable.
// The masks hold no JSON-special characters, so a JSON document stays valid. The one
// exception is `register` showing its new key once, through `reveal`.
import type { IO, Writer } from '../context.js';

/** `<prefix>_ag_` and at least 12 hex digits: a key, or enough of one to matter. */
const KEY_SHAPE = /[A-Za-z0-9]+_ag_[0-9a-fA-F]{12,}/g;
/** Runs of printable characters that JSON writes as they are (no space, quote or backslash). */
const TOKEN_RUN = /[!#-[\]-~]{12,}/g;
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
  private readonly windows = new Set<string>();
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
    const secretPart = s.includes('_ag_') ? s.slice(s.indexOf('_ag_') + 4) : s;
    for (let i = 0; i + WINDOW <= secretPart.length; i++) this.windows.add(secretPart.slice(i, i + WINDOW));
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

  redact(text: string): string {
    if (!this.loaded) {
      this.loaded = true;
      for (const secret of this.load()) this.add(secret);
    }
    const revealed = this.revealed;
    let out = text;
    for (const secret of this.known) {
      if (secret === revealed) continue;
      for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
        if (out.includes(form)) out = out.split(form).join(mask(secret));
      }
    }
    out = out.replace(KEY_SHAPE, (found) => (found === revealed ? found : mask(found)));
    if (this.windows.size > 0) {
      // Pieces of a known key: its secret part without the prefix, a key cut by a table cell.
      out = out.replace(TOKEN_RUN, (run) => (revealed?.includes(run) ? run : this.maskPieces(run)));
    }
    return out;
  }

  /** Replaces every stretch of `run` that is 12 or more characters of a known key. */
  private maskPieces(run: string): string {
    let out = '';
    let from = 0;
    for (let i = 0; i + WINDOW <= run.length; i++) {
      if (!this.windows.has(run.slice(i, i + WINDOW))) continue;
      let end = i + WINDOW;
      while (end < run.length && this.windows.has(run.slice(end - WINDOW + 1, end + 1))) end++;
      out += `${run.slice(from, i)}<redacted>`;
      from = end;
      i = end - 1;
    }
    return out + run.slice(from);
  }
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
  return { ...io, stdout: redactingWriter(io.stdout, redactor), stderr: redactingWriter(io.stderr, redactor) };
}
