import { describe, expect, it } from 'vitest';
import { mapSettledWithLimit } from '../../src/core/concurrency.js';

describe('mapSettledWithLimit', () => {
  it('never runs more than the limit at once, and returns results in the order given', async () => {
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const work = mapSettledWithLimit([0, 1, 2, 3, 4, 5, 6, 7, 8], 4, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
      if (n === 5) throw new Error('five');
      return n * 10;
    });
    // Release the waiting tasks newest first, so finishing order differs from the given order.
    while (releases.length || running) {
      await new Promise((r) => setImmediate(r));
      releases.pop()?.();
    }
    const results = await work;
    expect(peak).toBe(4);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      0,
      10,
      20,
      30,
      40,
      'five',
      60,
      70,
      80,
    ]);
  });

  it('handles an empty list', async () => {
    expect(await mapSettledWithLimit([], 4, async () => 1)).toEqual([]);
  });
});
