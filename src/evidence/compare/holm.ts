// Holm's step-down adjustment of a family of p values (Holm 1979), as R's p.adjust(method =
// "holm"): sorted ascending, p_(i) × (m − i + 1), kept non-decreasing, at most 1. A null p (a
// test that could not be made) is not one of the family and stays null.
export function holm(ps: ReadonlyArray<number | null>): Array<number | null> {
  const order = ps
    .map((p, i) => ({ p, i }))
    .filter((x): x is { p: number; i: number } => x.p !== null && Number.isFinite(x.p))
    .sort((a, b) => a.p - b.p || a.i - b.i);
  const m = order.length;
  const out: Array<number | null> = ps.map(() => null);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}
