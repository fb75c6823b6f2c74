// A body compressed though fcast asked for no compression (it sends no Accept-Encoding): some
// front ends compress whatever the request says (nginx's `gzip_static always`, a CDN, PHP's
// zlib.output_compression forced on). Read as browsers and fetch read it, instead of being
// shown as the bytes of a gzip stream; node:zlib is loaded only for such a body (decoders.ts).
// What does not decompress, or a coding fcast cannot read, is a bad response (exit 7), never a
// network error.
import type { Readable, Transform } from 'node:stream';
import { BadResponseError } from '../core/errors.js';

/** The body's bytes, decompressed as its Content-Encoding says (none, gzip, deflate or br). */
export async function decodedBody(body: Readable, contentEncoding: string | undefined): Promise<AsyncIterable<Buffer>> {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return body;
  const { decoderFor } = await import('./decoders.js');
  const decoder = decoderFor(coding);
  if (decoder === undefined) {
    body.resume();
    const named = /^[\w.+-]{1,40}$/.test(coding) ? coding : 'an unknown coding';
    throw new BadResponseError(`the response is compressed as ${named} (Content-Encoding), which fcast cannot read`, {
      hint: 'fcast asks for no compression: the server, or something in front of it, compresses regardless',
    });
  }
  return decompressed(body, decoder, coding);
}

async function* decompressed(body: Readable, decoder: Transform, coding: string) {
  // The body's own failure (a reset, the deadline) goes on as it is; the decoder's is the body's fault.
  let failed: unknown;
  body.on('error', (err) => {
    failed = err;
    decoder.destroy(err);
  });
  body.pipe(decoder);
  try {
    for await (const chunk of decoder) yield chunk as Buffer;
  } catch (err) {
    if (failed !== undefined && err === failed) throw err;
    throw new BadResponseError(
      `the response says it is compressed (Content-Encoding: ${coding}), but it does not decompress`,
      { cause: err },
    );
  } finally {
    if (!body.readableEnded) body.destroy();
  }
}
