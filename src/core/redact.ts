// The one redactor every byte fcast writes passes through (core/sinks.ts applies it to stdout,
// stderr and every file fcast writes for people): keys it knows (environment, config file,
// proxy URL, just typed) and anything shaped like a key are masked, whether they come from the
// server, a typed argument or an environment variable. The masks hold no JSON-special
// characters, so a JSON document stays valid. The one exception is `register` showing its new
// key once, through `reveal`.
//
// Linear in the text: every spelling of every known secret is found in one pass of one
// Aho-Corasick automaton, and every piece of 12 or more characters of a secret in one pass of
// one suffix automaton; nothing is searched again after a replacement (CONTRIBUTING.md,
// Performance measurements, 6, has the figures; test/property/redact.test.ts holds this to a
// plain reference redactor).

/** Shorter known values are not keys worth hunting for (and would mask ordinary words). */
const MIN_KNOWN = 8;
/** No 12 characters in a row of a known secret may be shown. */
const WINDOW = 12;
/** A base64 spelling shorter than this is too little of a secret to hunt for. */
const MIN_SPELLING = 8;

/** `mfa_ag_1a2b...9f0e`, or the ends of a run of hex: enough to tell two keys apart, never 12 characters in a row. */
export function mask(text: string): string {
  const cut = text.indexOf('_ag_');
  // Nothing of a key that JSON or a shell would treat specially: a mask never breaks a document.
  const plain = (part: string) => part.replace(/[^A-Za-z0-9_-]/g, '*');
  if (cut >= 0) return `${plain(text.slice(0, cut + 8))}...${plain(text.slice(-4))}`;
  if (text.length >= 16) return `${plain(text.slice(0, 4))}...${plain(text.slice(-4))}`;
  return '<redacted>';
}

/** A–Z read as a–z: every spelling is found in either case (an upper-cased key, `%2f` for `%2F`). */
export const foldAscii = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** The part of a key after `_ag_` (a prefix is shared by every key of a service), or the whole secret. */
export const secretPart = (secret: string): string =>
  secret.includes('_ag_') ? secret.slice(secret.indexOf('_ag_') + 4) : secret;

/**
 * The ways a secret may come back spelled: as written, JSON-escaped, URL-encoded (`%2F`,
 * `encodeURIComponent`'s, and with `+` for a space and `!'()*` escaped too, as forms and
 * other encoders write it), base64 and base64url at the three byte alignments (the stable
 * middle of the encoding of the secret after 0, 1 or 2 other bytes, as GitHub's runner masks
 * a secret's base64 forms), and a key's hex part in groups of 4 (`1a2b 3c4d`, `1a2b-3c4d`).
 * Upper and lower case are matched alike, so an upper-cased spelling needs no entry.
 */
export function spellings(secret: string): string[] {
  const forms = new Set<string>([secret, JSON.stringify(secret).slice(1, -1)]);
  const uri = encodeURIComponent(secret);
  forms.add(uri);
  forms.add(uri.replaceAll('%20', '+'));
  const strict = uri.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  forms.add(strict);
  forms.add(strict.replaceAll('%20', '+'));
  const bytes = Buffer.from(secret, 'utf8');
  for (let prefix = 0; prefix < 3; prefix++) {
    const encoded = Buffer.concat([Buffer.alloc(prefix), bytes]).toString('base64');
    // The characters that depend on the prefix, and those that depend on what follows, go.
    const stable = encoded.slice(Math.ceil((prefix * 8) / 6), Math.floor(((prefix + bytes.length) * 8) / 6));
    if (stable.length < MIN_SPELLING) continue;
    forms.add(stable);
    forms.add(stable.replaceAll('+', '-').replaceAll('/', '_'));
  }
  const part = secretPart(secret);
  if (part !== secret && /^[0-9a-f]{16,}$/i.test(part)) {
    const groups = part.match(/.{1,4}/g) ?? [];
    for (const sep of [' ', '-']) forms.add(groups.join(sep));
  }
  return [...forms].filter((f) => f.length >= MIN_SPELLING);
}

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
   * key shapes; then pieces of a secret. A short text (most writes: a line, a table) is first
   * searched for each spelling and each 12 characters of a secret, natively: when none is
   * there, the automata are not needed, and a run that writes no secret never builds them
   * (a few milliseconds of a cold start).
   */
  private redactPlain(text: string): string {
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

/** Below this length, a text is searched natively before any automaton is built or run. */
const SHORT = 8192;

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

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * Masks `<prefix>_ag_` followed by at least 12 hex digits: a key, or enough of one to matter.
 * Found from each `_ag_` outwards; a regular expression starting at every letter is ~50 times slower on a large body.
 */
export function maskKeyShapes(text: string, revealed: string | undefined): string {
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

/** Characters below this code have a row of their own in an automaton's table; others a Map. */
const TABLE = 128;

/** The two automata of a set of secrets. */
class Scanner {
  // Aho-Corasick over every spelling, case folded: goto resolved for ASCII, a Map beyond.
  private readonly acTable: Int32Array;
  private readonly acWide: Array<Map<number, number>> = [new Map()];
  private readonly acFail: number[] = [0];
  /** Per node, the spellings ending there (own and by failure links), as [length, mask] pairs. */
  private readonly acOut: Array<Array<[number, string]>> = [[]];
  /** Per node, 1 when a spelling ends there: the scan's one look per character. */
  private readonly acEnds: Uint8Array;
  // Suffix automaton over the secret parts (folded), each a separate string.
  private readonly samNext: Array<Map<number, number>> = [];
  private readonly samLink: number[] = [];
  private readonly samLen: number[] = [];
  private readonly samTable: Int32Array;
  private readonly hasSpellings: boolean;
  private readonly hasParts: boolean;

  constructor(secrets: readonly string[], parts: readonly string[]) {
    // --- Aho-Corasick: the trie, then failure links breadth-first.
    const children: Array<Map<number, number>> = [new Map()];
    for (const secret of secrets) {
      const shown = mask(secret);
      for (const form of spellings(secret)) {
        let node = 0;
        for (let i = 0; i < form.length; i++) {
          const c = foldAscii(form.charCodeAt(i));
          let next = children[node]!.get(c);
          if (next === undefined) {
            next = children.length;
            children.push(new Map());
            this.acOut.push([]);
            this.acFail.push(0);
            children[node]!.set(c, next);
          }
          node = next;
        }
        const own = this.acOut[node]!;
        if (!own.some(([len]) => len === form.length)) own.push([form.length, shown]);
      }
    }
    this.hasSpellings = children.length > 1;
    this.acTable = new Int32Array(children.length * TABLE);
    const order: number[] = [];
    for (const [c, child] of children[0]!) {
      if (c < TABLE) this.acTable[c] = child;
      else this.acWide[0]!.set(c, child);
      order.push(child);
    }
    // Breadth first: a node's failure is shallower, so its row and its spellings are complete.
    for (let q = 0; q < order.length; q++) {
      const node = order[q]!;
      const fail = this.acFail[node]!;
      this.acOut[node]!.push(...this.acOut[fail]!);
      this.acTable.copyWithin(node * TABLE, fail * TABLE, fail * TABLE + TABLE);
      const wide = new Map<number, number>();
      this.acWide[node] = wide;
      for (const [c, child] of children[node]!) {
        // The child's failure: the longest proper suffix of its spelling that is in the trie.
        this.acFail[child] = this.acGo(fail, c);
        if (c < TABLE) this.acTable[node * TABLE + c] = child;
        else wide.set(c, child);
        order.push(child);
      }
    }

    this.acEnds = Uint8Array.from(this.acOut, (out) => (out.length > 0 ? 1 : 0));

    // --- The suffix automaton of the parts; a quote or backslash ends a piece (half an escape
    // would break a JSON document), and no piece runs from one part into the next.
    this.samNext.push(new Map());
    this.samLink.push(-1);
    this.samLen.push(0);
    for (const part of parts) {
      let last = 0;
      for (let i = 0; i < part.length; i++) {
        const c = foldAscii(part.charCodeAt(i));
        if (c === 34 || c === 92) {
          last = 0;
          continue;
        }
        last = this.samExtend(last, c);
      }
    }
    this.hasParts = this.samNext.length > 1;
    this.samTable = new Int32Array(this.samNext.length * TABLE).fill(-1);
    this.samNext.forEach((next, s) => {
      for (const [c, t] of next) if (c < TABLE) this.samTable[s * TABLE + c] = t;
    });
  }

  /** The automaton's move from `node` on `c`: a row of the table, or failure links followed beyond ASCII. */
  private acGo(node: number, c: number): number {
    if (c < TABLE) return this.acTable[node * TABLE + c]!;
    for (let n = node; ; n = this.acFail[n]!) {
      const next = this.acWide[n]?.get(c);
      if (next !== undefined) return next;
      if (n === 0) return 0;
    }
  }

  /** Adds `c` after state `last` (the generalised construction: an existing move is reused, or split). */
  private samExtend(last: number, c: number): number {
    const { samNext: next, samLink: link, samLen: len } = this;
    const existing = next[last]!.get(c);
    if (existing !== undefined) {
      if (len[existing] === len[last]! + 1) return existing;
      const clone = next.length;
      next.push(new Map(next[existing]));
      link.push(link[existing]!);
      len.push(len[last]! + 1);
      for (let p = last; p !== -1 && next[p]!.get(c) === existing; p = link[p]!) next[p]!.set(c, clone);
      link[existing] = clone;
      return clone;
    }
    const cur = next.length;
    next.push(new Map());
    link.push(0);
    len.push(len[last]! + 1);
    let p = last;
    while (p !== -1 && !next[p]!.has(c)) {
      next[p]!.set(c, cur);
      p = link[p]!;
    }
    if (p === -1) return cur;
    const q = next[p]!.get(c)!;
    if (len[p]! + 1 === len[q]) {
      link[cur] = q;
      return cur;
    }
    const clone = next.length;
    next.push(new Map(next[q]));
    link.push(link[q]!);
    len.push(len[p]! + 1);
    for (; p !== -1 && next[p]!.get(c) === q; p = link[p]!) next[p]!.set(c, clone);
    link[q] = clone;
    link[cur] = clone;
    return cur;
  }

  /**
   * Every spelling of a known secret replaced by the secret's mask, leftmost first and longest
   * of those starting at one place; one pass of the automaton finds them all.
   */
  maskSpellings(text: string): string {
    if (!this.hasSpellings) return text;
    const table = this.acTable;
    const ends = this.acEnds;
    // Each spelling found: where it starts, its length, which mask; in the order they end.
    const starts: number[] = [];
    const hits: Array<[number, string]> = [];
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 65 && c <= 90) c += 32;
      node = c < TABLE ? table[node * TABLE + c]! : this.acGo(node, c);
      if (ends[node] === 0) continue;
      for (const hit of this.acOut[node]!) {
        starts.push(i + 1 - hit[0]);
        hits.push(hit);
      }
    }
    if (starts.length === 0) return text;
    // Leftmost first, and the longest of those starting at one place.
    const order = Array.from(starts.keys()).sort((x, y) => starts[x]! - starts[y]! || hits[y]![0] - hits[x]![0]);
    let out = '';
    let from = 0;
    for (const k of order) {
      const start = starts[k]!;
      if (start < from) continue;
      const [length, shown] = hits[k]!;
      out += text.slice(from, start) + shown;
      from = start + length;
    }
    return out + text.slice(from);
  }

  /**
   * Replaces every stretch of 12 or more characters of one secret part (either case): the
   * suffix automaton gives, at each character, the longest stretch ending there that is in a
   * part. Not a run of digits (a number in a body) nor of 3 different characters or fewer
   * (0000...): data, far likelier than a piece of a random key, and masking it would break a
   * JSON number. Overlapping stretches go as one mask.
   */
  maskPieces(text: string): string {
    if (!this.hasParts) return text;
    const { samTable: table, samNext: next, samLink: link, samLen: len } = this;
    let out = '';
    let from = 0;
    // The stretch of 12 or more being measured (maximal once the next starts later), and the
    // last one kept, not yet written (the next may overlap it).
    let runStart = -1;
    let runEnd = -1;
    let keptStart = -1;
    let keptEnd = -1;
    const settle = () => {
      if (!isPiece(text, runStart, runEnd)) return;
      if (keptEnd >= 0 && runStart < keptEnd) {
        keptEnd = Math.max(keptEnd, runEnd);
        return;
      }
      if (keptEnd >= 0) {
        out += `${text.slice(from, keptStart)}<redacted>`;
        from = keptEnd;
      }
      keptStart = runStart;
      keptEnd = runEnd;
    };
    let state = 0;
    let length = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 65 && c <= 90) c += 32;
      for (;;) {
        const t = c < TABLE ? table[state * TABLE + c]! : (next[state]!.get(c) ?? -1);
        if (t >= 0) {
          state = t;
          length++;
          break;
        }
        if (state === 0) {
          length = 0;
          break;
        }
        state = link[state]!;
        length = len[state]!;
      }
      if (length < WINDOW) {
        // A stretch of 12 or more before this one has ended (the start moved past it).
        if (runStart >= 0) {
          settle();
          runStart = -1;
        }
        continue;
      }
      const start = i + 1 - length;
      if (start !== runStart) {
        if (runStart >= 0) settle();
        runStart = start;
      }
      runEnd = i + 1;
    }
    if (runStart >= 0) settle();
    if (keptEnd >= 0) {
      out += `${text.slice(from, keptStart)}<redacted>`;
      from = keptEnd;
    }
    return out + text.slice(from);
  }
}

/** Whether text[start, end) may be a piece of a key: not all digits, at least 4 different characters. */
function isPiece(text: string, start: number, end: number): boolean {
  let digits = true;
  // The first 4 different characters (no Set: this runs for every stretch of a large body).
  let a = -1;
  let b = -1;
  let c = -1;
  let distinct = 0;
  for (let i = start; i < end && (digits || distinct < 4); i++) {
    const ch = text.charCodeAt(i);
    if (ch < 48 || ch > 57) digits = false;
    if (ch === a || ch === b || ch === c) continue;
    if (distinct === 0) a = ch;
    else if (distinct === 1) b = ch;
    else if (distinct === 2) c = ch;
    distinct++;
  }
  return !digits && distinct >= 4;
}
