// Neumaier's compensated sum, the one the scores and tests use: a million terms add up to the
// last bit or two, so a decomposition (Brier = REL − RES + UNC, CORP's MCB − DSC + UNC) holds to
// 1e-12 and the figures match numpy's and R's to 1e-9. Hot loops that cannot afford a call per
// term write the same three lines out on locals (evidence/compare/diebold-mariano.ts).

/** A running sum: add terms one at a time, read the value at any point. */
export class CompensatedSum {
  private s = 0;
  private c = 0;
  add(x: number): void {
    const t = this.s + x;
    this.c += Math.abs(this.s) >= Math.abs(x) ? this.s - t + x : x - t + this.s;
    this.s = t;
  }
  get value(): number {
    return this.s + this.c;
  }
}

/** The sum of an array of numbers. */
export function compensatedSum(xs: ArrayLike<number>): number {
  let s = 0;
  let c = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const t = s + x;
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    s = t;
  }
  return s + c;
}
