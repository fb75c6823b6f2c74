// A process-wide hold on the hard exit of a second Ctrl-C: while `register` has a key that is
// not yet printed and saved, the launcher (src/launch/run.ts) waits for the hold to end before it exits.
let holds = 0;
let pendingExit: (() => void) | undefined;

/** Holds the hard exit until the returned function is called (once is enough). */
export function holdExit(): () => void {
  holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds--;
    if (holds === 0 && pendingExit) {
      const exit = pendingExit;
      pendingExit = undefined;
      exit();
    }
  };
}

/** Exits now, or as soon as nothing holds the exit. */
export function exitWhenFree(exit: () => void): void {
  if (holds === 0) exit();
  else pendingExit = exit;
}
