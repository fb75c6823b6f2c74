/**
 * `work`, or a rejection as soon as `signal` aborts, whichever comes first: a phase that cannot
 * be cancelled (a connect, a TLS handshake, a proxy tunnel) is left behind, never waited for.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
  reason: () => unknown = () => signal.reason,
  /** Asked at the moment of the abort: true lets `work` go on as if nothing happened. */
  held: () => boolean = () => false,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      if (!held()) reject(reason());
    };
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
