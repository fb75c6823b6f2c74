// The fast redactor (src/core/redact.ts: an Aho-Corasick pass for the spellings, a suffix
// automaton for the pieces) held to a plain one written here the obvious way: at each place
// the longest spelling starting there, then every stretch of a secret tried start by end.
// Secrets come from a small alphabet and texts are made of their spellings, pieces, near
// misses and noise, so that spellings overlap, pieces cross, and quotes cut them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { escapeStart, foldAscii, mask, maskKeyShapes, secretPart, spellings } from '../../src/core/secret-spellings.js';
import { FUZZ_PARAMS } from './harness.js';

const fold = (text: string): string => String.fromCharCode(...[...text].map((ch) => foldAscii(ch.charCodeAt(0))));

function reference(secrets: readonly string[], text: string, revealed: string | undefined): string {
  const spelled = spelledReference(secrets, text, revealed);
  if (!spelled.includes('%')) return spelled;
  // 4. Each run of URL text holding an escape, read decoded (escapes are 3 or 6 characters,
  // as unescape reads them); where the reference masks something there, the stretch from the
  // first change to the last (widened to the masks' own letters) goes out as the masks,
  // everything else in it escaped again.
  return spelled.replace(/[^\x00-\x20"'<>`\x7f]+/g, (run) => {
    if (!run.includes('%')) return run;
    const at: number[] = [];
    for (let i = 0; i < run.length; ) {
      at.push(i);
      const hex = (k: number) => /[0-9a-f]/i.test(run[k] ?? '');
      if (run[i] === '%' && run[i + 1] === 'u' && [2, 3, 4, 5].every((k) => hex(i + k))) i += 6;
      else if (run[i] === '%' && hex(i + 1) && hex(i + 2)) i += 3;
      else i += 1;
    }
    at.push(run.length);
    const decoded = unescape(run);
    if (decoded === run || decoded.length < 8) return run;
    const masked = spelledReference(secrets, decoded, revealed);
    if (masked === decoded) return run;
    let head = 0;
    while (head < masked.length && masked[head] === decoded[head]) head++;
    let tail = 0;
    while (tail < Math.min(masked.length, decoded.length) - head && masked.at(-1 - tail) === decoded.at(-1 - tail))
      tail++;
    // The masks whole, as they read: none of their letters left in its escape.
    while (head > 0 && /[A-Za-z0-9_-]/.test(masked[head - 1]!)) head--;
    while (tail > 0 && /[A-Za-z0-9_-]/.test(masked.at(-tail)!)) tail--;
    const middle = masked.slice(head, masked.length - tail).replace(/<redacted>|[^A-Za-z0-9_\-*.]/g, (c) => {
      if (c.length > 1) return c;
      const code = c.charCodeAt(0);
      return code < 0x100
        ? `%${code.toString(16).toUpperCase().padStart(2, '0')}`
        : `%u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    });
    const from = at[head]!;
    return run.slice(0, escapeStart(run, from)) + middle + run.slice(at[decoded.length - tail]!);
  });
}

/** Steps 1-3: the spellings, the key shapes, the pieces. */
function spelledReference(secrets: readonly string[], text: string, revealed: string | undefined): string {
  const hidden = secrets.filter((s) => s !== revealed);
  // 1. Spellings: at each place, the longest one starting there (the first secret's on a tie).
  const forms = hidden.flatMap((s) => spellings(s).map((f) => ({ f: fold(f), shown: mask(s) })));
  let spelled = '';
  let lastEnd = 0;
  for (let i = 0; i < text.length; ) {
    let best: { f: string; shown: string } | undefined;
    for (const form of forms)
      if (fold(text.slice(i, i + form.f.length)) === form.f && form.f.length > (best?.f.length ?? 0)) best = form;
    if (best) {
      // A mask that starts on the letter of a backslash escape, or inside \uXXXX, takes the escape whole.
      spelled = spelled.slice(0, spelled.length - (i - Math.max(lastEnd, escapeStart(text, i)))) + best.shown;
      i += best.f.length;
      lastEnd = i;
    } else spelled += text[i++];
  }
  // 2. Key shapes: unchanged code, tested on its own in test/unit/redact.test.ts.
  const shaped = maskKeyShapes(spelled, revealed);
  // 3. Pieces: every stretch of 12 or more that lies in a part (either case, no quote or
  // backslash), kept when no longer one holds it and it is not data (digits; < 4 characters).
  const parts = hidden.map(secretPart).filter((p) => p.length >= 12 && !revealed?.includes(p));
  // Only the longest stretch from each start can be maximal, and a stretch that no part holds
  // (or that holds a quote) has no longer one that is held: so each start stops at its first miss.
  const found: Array<[number, number]> = [];
  for (let s = 0; s < shaped.length; s++) {
    let longest = 0;
    for (let e = s + 12; e <= shaped.length; e++) {
      const piece = shaped.slice(s, e);
      if (/["\\]/.test(piece) || !parts.some((p) => fold(p).includes(fold(piece)))) break;
      longest = e;
    }
    if (longest > 0) found.push([s, longest]);
  }
  const maximal = found.filter(([s, e]) => !found.some(([s2, e2]) => s2 <= s && e2 >= e && e2 - s2 > e - s));
  const kept = maximal.filter(([s, e]) => {
    const piece = shaped.slice(s, e);
    return !/^\d+$/.test(piece) && new Set(piece).size >= 4;
  });
  kept.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  for (let k = 0; k < kept.length; ) {
    const start = kept[k]![0];
    let end = kept[k]![1];
    for (k++; k < kept.length && kept[k]![0] < end; k++) end = Math.max(end, kept[k]![1]);
    out += `${shaped.slice(from, Math.max(from, escapeStart(shaped, start)))}<redacted>`;
    from = end;
  }
  return out + shaped.slice(from);
}

/** Made of a few shared chunks, so that secrets share long stretches and repeat within. */
const chunky = (chunks: string[], min: number, max: number) =>
  fc
    .array(fc.constantFrom(...chunks), { minLength: 1, maxLength: 8 })
    .chain((picked) => fc.nat({ max: 5 }).map((cut) => picked.join('').slice(cut, cut + max)))
    .filter((t) => t.length >= min);
const hex = chunky(['abc012', 'c0123F', '3Fab0c', '0123ab', '111111', '9'], 12, 40);
const gateway = chunky(['aB"c0/', '+= \\%-', '_~é+aB', 'c0/+=a', 'gw'], 8, 24);
const secret = fc.oneof(
  hex.map((h) => `mfa_ag_${h}`),
  // As the redactor takes them: trimmed, 8 characters or more.
  gateway.filter((g) => g.trim() === g),
  // Secrets that begin like another (a spelling that is a prefix of another's).
  fc.constantFrom('mfa_ag_abc012c0123F', 'mfa_ag_abc012c0123F3Fab0c', 'gwTok3n-Zq8xY3vP', 'gwTok3n-Zq8x'),
);

/** One piece of a text: noise, a spelling, a piece of a secret, a case-changed one, a key shape, or chunks. */
const fragment = (secrets: readonly string[]) =>
  fc.oneof(
    fc.string({ unit: fc.constantFrom(...'abc0123F_ag"\\ %+/=-'), maxLength: 12 }),
    fc.constantFrom(...secrets.flatMap(spellings)),
    fc
      .tuple(fc.constantFrom(...secrets.map(secretPart)), fc.nat(), fc.nat())
      .map(([p, a, b]) => p.slice(Math.min(a, b) % (p.length + 1), Math.max(a, b) % (p.length + 1))),
    fc.constantFrom(...secrets).map((s) => s.toUpperCase()),
    hex.map((h) => `v1_ag_${h}`),
    // The chunks the secrets are made of, in another order: stretches of two secrets that overlap.
    hex,
  );

const cases = fc.uniqueArray(secret, { minLength: 1, maxLength: 3 }).chain((secrets) =>
  fc.record({
    secrets: fc.constant(secrets),
    text: fc.array(fragment(secrets), { maxLength: 8 }).map((parts) => parts.join('')),
    reveal: fc.option(fc.constantFrom(...secrets), { nil: undefined }),
  }),
);

describe('the fast redactor and a plain one', () => {
  it(
    'mask the same text the same way',
    () => {
      fc.assert(
        fc.property(cases, ({ secrets, text, reveal }) => {
          const r = new Redactor(() => secrets);
          let shown = '';
          if (reveal === undefined) shown = r.redact(text);
          else r.reveal(reveal, () => (shown = r.redact(text)));
          expect(shown).toBe(reference(secrets, text, reveal));
        }),
        { ...FUZZ_PARAMS, numRuns: Math.ceil(FUZZ_PARAMS.numRuns / 2) },
      );
    },
    Math.max(20_000, FUZZ_PARAMS.numRuns * 20),
  );
});
