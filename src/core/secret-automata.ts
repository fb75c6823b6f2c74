// The two automata of the redactor: an Aho-Corasick automaton over every spelling of every
// known secret, and a suffix automaton over their parts, each matched in one pass of the text
// (linear in it, whatever was replaced before). What they look for is secret-spellings.ts's.
import { escapeStart, foldAscii, mask, spellings, WINDOW } from './secret-spellings.js';

/** Characters below this code have a row of their own in an automaton's table; others a Map. */
const TABLE = 128;

/** The two automata of a set of secrets. */
export class Scanner {
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
      out += text.slice(from, Math.max(from, escapeStart(text, start))) + shown;
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
        out += `${text.slice(from, Math.max(from, escapeStart(text, keptStart)))}<redacted>`;
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
      out += `${text.slice(from, Math.max(from, escapeStart(text, keptStart)))}<redacted>`;
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
