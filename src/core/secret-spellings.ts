// How a secret looks once written: its mask, the spellings it may come back in (escaped,
// encoded, base64, grouped), and the shape of a key (`<prefix>_ag_` and hex) found in any text.
// The redactor (redact.ts) hunts these; the automata (secret-automata.ts) find them in one pass.

/** No 12 characters in a row of a known secret may be shown. */
export const WINDOW = 12;
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

/** Whether `folded` (lower case) holds 12 characters in a row of `part` (lower case): a piece no output may show. */
export function holdsPiece(folded: string, part: string): boolean {
  for (let i = 0; i + WINDOW <= part.length; i++) if (folded.includes(part.slice(i, i + WINDOW))) return true;
  return false;
}

/**
 * Whether `folded` (a text in lower case) may show `secret` where the redactor would mask it:
 * one of its spellings, or a piece of its secret part (holdsPiece). The redactor's rule in
 * plain loops, for a text that reaches the terminal without passing it: the launcher's root
 * help (src/launch/fast-paths.ts), written only when this finds no secret of the environment.
 */
export function mayShowSecret(folded: string, secret: string): boolean {
  for (const form of spellings(secret)) if (folded.includes(form.toLowerCase())) return true;
  return holdsPiece(folded, secretPart(secret).toLowerCase());
}

/**
 * The ways a secret may come back spelled: as written, JSON-escaped (as JSON.stringify,
 * Python and PHP write it), every character as its `\u` escape, each escaped spelling as JSON
 * shows a string holding it (backslashes doubled),
 * URL-encoded (`%2F`,
 * `encodeURIComponent`'s, and with `+` for a space and `!'()*` escaped too; any other mix of
 * escapes, `~` as `%7E` or every character escaped, is found by decoding the run it is in:
 * redact.ts, maskEncodedRuns), base64 and base64url at the three byte alignments (the stable
 * middle of the encoding of the secret after 0, 1 or 2 other bytes, as GitHub's runner masks
 * a secret's base64 forms), and a key's hex part in groups of 4 (`1a2b 3c4d`, `1a2b-3c4d`).
 * Upper and lower case are matched alike, so an upper-cased spelling needs no entry.
 */
export function spellings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  // As Python's json.dumps (non-ASCII as \uXXXX) and PHP's json_encode (`/` as `\/` too) write
  // it, and with the quote and the backslash as \u escapes (--json keeps those as sent).
  const ascii = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const unicode = ascii.replace(/\\\\/g, '\\u005c').replace(/\\"/g, '\\u0022');
  const forms = new Set<string>([secret, json, ascii, ascii.replaceAll('/', '\\/'), unicode]);
  // Every character as a \u escape: the JSON of a text that a server wrote out escaped, or
  // kept as sent (and a string whose value is that text: below).
  let escaped = '';
  for (let i = 0; i < secret.length; i++) escaped += `\\u${secret.charCodeAt(i).toString(16).padStart(4, '0')}`;
  forms.add(escaped);
  // A string whose value is one of these escaped spellings (`\u006d\u0066...`, `gw\/Ke`) is
  // shown by JSON with its backslashes doubled: a JSON document, a journal line.
  for (const form of [...forms]) if (form.includes('\\')) forms.add(JSON.stringify(form).slice(1, -1));
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

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * Where a mask found at `start` begins so as not to cut a backslash escape of JSON (or
 * JavaScript) in two: at the escape's backslash when `start` is its letter (`\b`, the `u` of
 * `\u00e9`) or one of the four hex digits of `\uXXXX`, else `start`. A mask written from
 * `start` would leave `\` or `\u00` before it, and a JSON document would no longer parse;
 * starting after the escape instead would show a key whose prefix is the escape's letter.
 */
export function escapeStart(text: string, start: number): number {
  let k = start;
  while (k > 0 && text.charCodeAt(k - 1) === 0x5c) k--;
  if ((start - k) % 2 === 1) return start - 1;
  for (let u = start - 1; u >= Math.max(1, start - 4); u--) {
    const c = text.charCodeAt(u);
    if (c === 0x75 /* u */) {
      let b = u;
      while (b > 0 && text.charCodeAt(b - 1) === 0x5c) b--;
      return (u - b) % 2 === 1 ? u - 1 : start;
    }
    if (!isHex(c)) break;
  }
  return start;
}

/**
 * Masks `<prefix>_ag_` followed by at least 12 hex digits: a key, or enough of one to matter.
 * Found from each `_ag_` outwards; a regular expression starting at every letter is far slower on a large body
 * (docs/decisions/2026-11-27-redaction.md).
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
    if (found === revealed) {
      out += text.slice(from, end);
    } else {
      const cut = Math.max(from, escapeStart(text, start));
      out += text.slice(from, cut) + mask(text.slice(cut, end));
    }
    from = end;
  }
  return out + text.slice(from);
}
