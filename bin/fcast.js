#!/usr/bin/env node
// The only place that ends the process. Ctrl-C (or SIGTERM) aborts the running command,
// which ends with exit 130 (`fcast mock` stops cleanly instead); a second one ends at once.
import { realContext } from '../dist/context.js';
import { main } from '../dist/main.js';

const interrupt = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    interrupt.abort();
    process.once(signal, () => process.exit(130));
  });
}

// `fcast demo | head -3`: the reader left; that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await main(process.argv.slice(2), realContext(interrupt.signal));
