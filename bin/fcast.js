#!/usr/bin/env node
// The only place that ends the process. Ctrl-C (or SIGTERM) aborts the running command,
// which ends with exit 130 (`fcast mock` stops cleanly instead); a second one ends at once.
const argv = process.argv.slice(2);

// `fcast --version` is what scripts and bug reports run most; it needs no command tree.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { packageVersion } = await import('../dist/context.js');
  process.stdout.write(`${packageVersion()}\n`);
  process.exit(0);
}

// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it twice: a quick
// baseline (Liftoff), then an optimised tier in background threads that the process must
// join before it exits, ~80 ms of a ~250 ms `fcast demo --json` (npm run bench). A CLI's
// few short responses never need the optimised parser. Set here, for this process only,
// before anything loads undici.
const { setFlagsFromString } = await import('node:v8');
setFlagsFromString('--liftoff-only');

const { realContext } = await import('../dist/context.js');
const { main } = await import('../dist/main.js');
const { exitWhenFree } = await import('../dist/exit-guard.js');

const interrupt = new AbortController();
// One listener for good: between a `once` firing and the next being added, a signal would
// find none and kill the process outright.
let signals = 0;
const onSignal = () => {
  if (++signals === 1) interrupt.abort();
  // Unless register holds a new key not yet printed and saved: then as soon as it is.
  else exitWhenFree(() => process.exit(130));
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, onSignal);

// `fcast demo | head -3`: the reader left; that is not an error worth a stack trace. A full
// disk or a closed descriptor is worth one line, and exit 1, since the data did not arrive.
const WRITE_FAILURES = { ENOSPC: 'no space left on the device', EBADF: 'it is closed', EIO: 'an I/O error' };
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    if (stream === process.stdout) {
      const why = WRITE_FAILURES[err.code] ?? err.code ?? 'unknown error';
      process.stderr.write(`fcast: cannot write the output to stdout: ${why}\n`);
    }
    process.exit(1);
  });
}

const code = await main(argv, realContext(interrupt.signal));
process.exitCode = code;
// Leave as soon as the output is flushed: undici's HTTP parser is WebAssembly, and V8 keeps
// optimising it in background threads that would hold the process ~130 ms after the work.
const flushed = (stream) => new Promise((resolve) => stream.write('', resolve));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
