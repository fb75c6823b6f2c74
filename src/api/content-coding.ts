// A body compressed though fcast asked for no compression (it sends no Accept-Encoding): some
// front ends compress whatever the request says (nginx's `gzip_static always`, a CDN, PHP's
// zlib.output_compression forced on). Read as browsers and fetch read it, instead of being
// shown as the bytes of a gzip stream; node:zlib is loaded only for such a body (decoders.ts).
// What does not decompress, or a coding fcast cannot read, is a bad response (exit 7), never a
// network error.
import type { Readable, Transform } from 'node:stream';
import { BadResponseError } from '../core/errors.js';

/** More codings than this on one body is no front end's doing (fetch in undici stops at 5 too). */
const MAX_CODINGS = 5;

/** The body's bytes, decompressed as its Content-Encoding says (none, gzip, deflate or br, or a list of them). */
export async function decodedBody(body: Readable, contentEncoding: string | undefined): Promise<AsyncIterable<Buffer>> {
  // A list names the codings in the order they were applied (RFC 9110 8.4): undone last first.
  const applied = (contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (applied.length === 0) return body;
  const codings = applied.toReversed();
  const { DECODERS } = await import('./decoders.js');
  const makers = codings.map((coding) => DECODERS.get(coding));
  const unknown = codings.find((_, i) => makers[i] === undefined);
  if (unknown !== undefined) {
    const named = /^[\w.+-]{1,40}$/.test(unknown) ? unknown : 'an unknown coding';
    throw unreadable(body, `the response is compressed as ${named} (Content-Encoding), which fcast cannot read`);
  }
  if (codings.length > MAX_CODINGS) {
    throw unreadable(
      body,
      `the response is compressed ${codings.length} times over (Content-Encoding), more than fcast reads`,
    );
  }
  return decompressed(
    body,
    makers.map((make) => make!()),
    applied.join(', '),
  );
}

function unreadable(body: Readable, message: string): BadResponseError {
  body.resume();
  return new BadResponseError(message, {
    hint: 'fcast asks for no compression: the server, or something in front of it, compresses regardless',
  });
}

async function* decompressed(body: Readable, decoders: Transform[], coding: string) {
  const last = decoders.at(-1)!;
  // The body's own failure (a reset, the deadline) goes on as it is; a decoder's is the body's fault.
  let failed: unknown;
  body.on('error', (err) => {
    failed = err;
    last.destroy(err);
  });
  for (const decoder of decoders.slice(0, -1)) decoder.on('error', (err) => last.destroy(err));
  decoders.reduce<Readable>((from, decoder) => from.pipe(decoder), body);
  try {
    for await (const chunk of last) yield chunk as Buffer;
  } catch (err) {
    if (failed !== undefined && err === failed) throw err;
    throw new BadResponseError(
      `the response says it is compressed (Content-Encoding: ${coding}), but it does not decompress`,
      { cause: err },
    );
  } finally {
    for (const decoder of decoders) decoder.destroy();
    if (!body.readableEnded) body.destroy();
  }
}
