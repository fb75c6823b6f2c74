// Everything but the fast paths: main over the bundle, with the process's signals, stdio and
// exit code. Ctrl-C (or SIGTERM, SIGHUP) aborts the running command, which ends with exit 130
// (`fcast mock` stops cleanly instead); a second one ends at once.
import type { Install } from './install.js';
import { realStdio, WRITE_FAILED, writeFailure } from './stdio.js';

/** Runs main; `exit` (bin's) is the only way this ends the process. */
export async function run(argv: string[], install: Install, exit: (code: number) => never): Promise<void> {
  const { realContext, main, exitWhenFree } = await install.entry();

  // undici (loaded only behind a proxy) parses HTTP with llhttp compiled to WebAssembly. V8
  // compiles it twice: a quick baseline (Liftoff), then an optimised tier in background
  // threads that the process must join before it exits. A CLI's few short responses never
  // need the optimised parser. Set for this process only, before anything loads undici, only
  // when a proxy variable is set (the only way undici loads: node:v8 itself is dear to load),
  // and after the bundle is compiled: V8 refuses a code cache made under other flags.
  if (Object.keys(process.env).some((name) => /^https?_proxy$/i.test(name))) {
    process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
  }

  const interrupt = new AbortController();
  // Every request in flight listens to it (predict runs twenty at once): not a leak.
  process.getBuiltinModule('node:events').setMaxListeners(0, interrupt.signal);
  // One listener for good: between a `once` firing and the next being added, a signal would
  // find none and kill the process outright.
  let signals = 0;
  const onSignal = () => {
    if (++signals === 1) interrupt.abort();
    // Unless register holds a new key not yet printed and saved: then as soon as it is.
    else exitWhenFree(() => exit(130));
  };
  // SIGHUP too (the terminal closed): a watch gives the terminal back and register finishes
  // saving a new key, where Node's default would end the process on the spot.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

  // `fcast demo | head -3`: the reader left; that is not an error worth a stack trace. A full
  // disk or a closed descriptor is worth one line (on stderr, when that is not what failed),
  // and exit 3, since the data did not arrive.
  let writeFailed = false;
  const out = realStdio((fd, err) => {
    if (err.code === 'EPIPE') exit(Number(process.exitCode ?? 0));
    // The command may end before the line is out: its own exit code must not win then.
    writeFailed = true;
    if (fd === 2) exit(WRITE_FAILED);
    out.stdio.stderr.write(writeFailure(err));
    out.stderrFlushed().then(() => exit(WRITE_FAILED));
  });

  const ended = await main(argv, realContext(interrupt.signal, out.stdio, install.version()));
  // A failed write to a file (SyncWriteStream) reports its error on the next tick: let it.
  await new Promise((resolve) => setImmediate(resolve));
  const code = () => (writeFailed ? WRITE_FAILED : ended);
  process.exitCode = code();
  // Leave as soon as the output is flushed: nothing the command left behind (a keep-alive
  // socket, a compiler thread) may hold the process.
  await out.flushed();
  exit(code());
}
