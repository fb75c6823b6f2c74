#!/usr/bin/env node
// The redactor over a body near the 16 MiB cap, packed with what it hunts and what it must
// leave: a known REST key as written, upper-cased, in 4-hex groups, its secret part alone and
// in 20-character pieces; a gateway key URL-encoded and in base64 at each byte alignment;
// unknown key-shaped text; near-keys (`mfa_ag_` and 11 hex digits); runs of random hex; and
// JSON between them. Each size is redacted in a fresh Redactor three times, the fastest
// kept (the first run also compiles the automata and warms V8); 1 MiB too, for the ratio
// that shows the time linear in the size (16 for linear, ~256 for the quadratic redactor of
// issue 29). The output is checked: no 12 characters in a row of either secret may be left.
//   node scripts/bench-redact.js   (after `npm run build`)
// Prints one JSON line: { mib, ms, mib1Ms, ratio, masks }.
const { Redactor } = await import(new URL('../dist/core/redact.js', import.meta.url).href);

const KEY = 'mfa_ag_7c2f9a41d83be6050f1c4a97b2d8e36f5a0c1b94';
const HEX = KEY.slice(7);
const GW = 'gw/Ke+y=S3cr3t-Tok3n&Zq8x';

/** A deterministic stream of hex digits (no Math.random: every run redacts the same bytes). */
let seed = 20261127;
const hex = (n) => {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    s += '0123456789abcdef'[seed >>> 28];
  }
  return s;
};

const pieces = [
  (i) => `{"source":"${KEY}","n":${i}},`,
  () => `"echo":"${KEY.toUpperCase()}",`,
  () => `"groups":"${HEX.match(/.{4}/g).join(' ')}",`,
  () => `"part":"${HEX}${HEX}",`,
  (i) => `"piece":"${HEX.slice(i % 20, (i % 20) + 20)}",`,
  () => `"detail":"${encodeURIComponent(GW)}",`,
  (i) => `"b64":"${Buffer.from(`${'ab'.slice(0, i % 3)}${GW}`).toString('base64')}",`,
  () => `"other":"v2_ag_${hex(40)}",`,
  () => `"near":"mfa_ag_${hex(11)}",`,
  () => `"hex":"${hex(64)}",`,
  (i) => `"price":${91234.5 + i},"text":"an ordinary sentence of the body, with no key in it",`,
];

function body(bytes) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const piece = pieces[i % pieces.length](i);
    parts.push(piece);
    size += piece.length;
  }
  // Through a Buffer: a flat string, as a body read from the network is.
  return Buffer.from(parts.join('')).toString('utf8');
}

function fastest(text) {
  let best = Number.POSITIVE_INFINITY;
  let out = '';
  for (let run = 0; run < 3; run++) {
    const redactor = new Redactor(() => [KEY, GW]);
    const started = process.hrtime.bigint();
    out = redactor.redact(text);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { ms: best, out };
}

const MIB = 1024 * 1024;
const small = fastest(body(MIB));
const large = fastest(body(16 * MIB));
const lower = large.out.toLowerCase();
for (const secret of [HEX, GW, encodeURIComponent(GW)])
  for (let i = 0; i + 12 <= secret.length; i++)
    if (lower.includes(secret.slice(i, i + 12).toLowerCase()))
      throw new Error(`the redacted body still holds '${secret.slice(i, i + 12)}'`);
console.log(
  JSON.stringify({
    mib: 16,
    ms: large.ms,
    mib1Ms: small.ms,
    ratio: large.ms / small.ms,
    masks: large.out.split('<redacted>').length - 1,
  }),
);
