// The decompressors of content-coding.ts, in a module of their own so that node:zlib is loaded
// only for a compressed body (the bundle may keep no import() of a builtin: scripts/build.js).
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';

/** A decompressor for a Content-Encoding, or undefined for one fcast cannot read. */
export function decoderFor(coding: string): Transform | undefined {
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip();
  if (coding === 'deflate') return createInflate();
  if (coding === 'br') return createBrotliDecompress();
  return undefined;
}
