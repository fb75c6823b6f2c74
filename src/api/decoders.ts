// The decompressors of content-coding.ts, in a module of their own so that node:zlib is loaded
// only for a compressed body (the bundle may keep no import() of a builtin: scripts/build.js).
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';

/** A decompressor for each Content-Encoding fcast can read. */
export const DECODERS: ReadonlyMap<string, () => Transform> = new Map([
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);
