// Work arrays reused from one series and one timeframe to the next. At a million forecasts a
// comparison's cost is as much the fresh memory it touches as the arithmetic: every new page
// of a typed array is faulted in (and zeroed) by the kernel on first write, which on a virtual
// machine costs more than the passes over it (docs/decisions/2026-12-02-journal-compare.md).
// A slot is named by its one user; what it hands out holds the last user's values, never
// zeros: every user writes all of it before reading. One set per thread (a worker has its own
// module), so no two timeframes computed at once share one.

const slots = new Map<string, Float64Array>();

/** A Float64Array of length n from slot `name`, grown (never shrunk) as needed; its contents are stale. */
export function scratch(name: string, n: number): Float64Array {
  let b = slots.get(name);
  if (b === undefined || b.length < n) {
    b = new Float64Array(Math.max(n, 1024));
    slots.set(name, b);
  }
  return b.subarray(0, n);
}

/** Lets the slots' memory go: `compare` does, once its timeframes are done. */
export function releaseScratch(): void {
  slots.clear();
}
