// A seeded generator for the bootstrap: mulberry32 (32-bit state), whose runs are the same on
// every platform and Node version, so a --seed gives the same figures everywhere. Doubles are
// made of two draws (53 bits).
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A uniform double in [0, 1). */
  next(): number {
    return ((this.nextUint32() >>> 5) * 67108864 + (this.nextUint32() >>> 6)) / 9007199254740992;
  }

  /**
   * An integer in [0, n), n ≤ 2^32, from one draw (⌊u·n / 2^32⌋): each value's chance is off
   * from 1/n by less than n / 2^32 of itself (2e-4 at a million), far below any bootstrap's
   * Monte Carlo error.
   */
  below(n: number): number {
    return Math.floor(this.nextUint32() * (n / 4294967296));
  }
}
