// The entry of a watch: a board on a terminal, a stream anywhere else (and for --json).
import type { Ctx } from '../core/context.js';
import type { Output } from '../output/io.js';
import { boardForecasts } from './board.js';
import type { ForecastSource, WatchOptions } from './source.js';
import { streamForecasts } from './stream.js';

export type { Answer, Forecast, ForecastSource, WatchOptions } from './source.js';

/**
 * Refreshes `source` until q, Ctrl-C, --count or a permanent failure; returns the exit code.
 * The board needs a terminal that can move its cursor: TERM=dumb gets the stream, and so does
 * --format markdown (a document per refresh, never a screen redrawn).
 */
export function watchForecasts(ctx: Ctx, out: Output, source: ForecastSource, options: WatchOptions): Promise<number> {
  return out.tty && !options.json && !out.markdown && ctx.env.TERM !== 'dumb'
    ? boardForecasts(ctx, out, source, options)
    : streamForecasts(ctx, out, source, options);
}
