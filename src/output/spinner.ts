// A sign of life during a slow request: on a terminal's stderr only, never with --json (a
// script reading stdout needs no spinner, and its stderr may be a log), and only once a
// request has taken about a second, so quick answers never flicker.
import type { Output } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const DELAY_MS = 1000;
const FRAME_MS = 100;

/** `work`, with `label` spinning on stderr while it lasts longer than a second. */
export async function withSpinner<T>(
  out: Output,
  opts: { json?: boolean; label: string },
  work: Promise<T>,
): Promise<T> {
  if (opts.json || out.io.stderr.isTTY !== true) return work;
  let frame = 0;
  let ticker: NodeJS.Timeout | undefined;
  const started = setTimeout(() => {
    const draw = () => out.progress(`${FRAMES[frame++ % FRAMES.length]} ${opts.label}`);
    draw();
    ticker = setInterval(draw, FRAME_MS);
    ticker.unref();
  }, DELAY_MS);
  started.unref();
  try {
    return await work;
  } finally {
    clearTimeout(started);
    if (ticker) clearInterval(ticker);
    out.progress(undefined);
  }
}
