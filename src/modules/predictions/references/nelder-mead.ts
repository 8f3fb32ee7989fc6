/**
 * Nelder–Mead simplex minimisation of f over unconstrained ℝⁿ (callers map bounded parameters through
 * transforms). Standard coefficients (reflection 1, expansion 2, contraction ½, shrink ½); stops when the
 * simplex's values agree to `tolerance` (absolute) or after `maxEvaluations`.
 */
export function nelderMead(
  f: (x: Float64Array) => number,
  start: ArrayLike<number>,
  options: { step?: number; tolerance?: number; maxEvaluations?: number } = {},
): { x: Float64Array; value: number; evaluations: number } {
  const n = start.length;
  const step = options.step ?? 0.5;
  const tolerance = options.tolerance ?? 1e-8;
  const maxEvaluations = options.maxEvaluations ?? 200 * n;
  let evaluations = 0;
  const value = (x: Float64Array) => {
    evaluations++;
    const v = f(x);
    return Number.isFinite(v) ? v : Number.POSITIVE_INFINITY;
  };
  const points: Float64Array[] = [Float64Array.from(start)];
  for (let k = 0; k < n; k++) {
    const p = Float64Array.from(start);
    p[k] = p[k]! + step;
    points.push(p);
  }
  const values = points.map(value);
  const order = points.map((_, k) => k);
  const combine = (a: Float64Array, b: Float64Array, t: number) => a.map((ai, k) => ai + t * (b[k]! - ai));
  while (evaluations < maxEvaluations) {
    order.sort((a, b) => values[a]! - values[b]!);
    const best = order[0]!;
    const worst = order[n]!;
    const second = order[n - 1]!;
    if (Math.abs(values[worst]! - values[best]!) <= tolerance) break;
    const centroid = new Float64Array(n);
    for (const k of order.slice(0, n))
      for (let d = 0; d < n; d++) centroid[d] = centroid[d]! + points[k]![d]! / n;
    const reflected = combine(centroid, points[worst]!, -1);
    const fr = value(reflected);
    if (fr < values[best]!) {
      const expanded = combine(centroid, points[worst]!, -2);
      const fe = value(expanded);
      [points[worst], values[worst]] = fe < fr ? [expanded, fe] : [reflected, fr];
    } else if (fr < values[second]!) {
      [points[worst], values[worst]] = [reflected, fr];
    } else {
      const outside = fr < values[worst]!;
      const contracted = combine(centroid, outside ? reflected : points[worst]!, 0.5);
      const fc = value(contracted);
      if (fc < (outside ? fr : values[worst]!)) [points[worst], values[worst]] = [contracted, fc];
      else
        for (const k of order.slice(1)) {
          points[k] = combine(points[best]!, points[k]!, 0.5);
          values[k] = value(points[k]!);
        }
    }
  }
  let best = 0;
  for (let k = 1; k <= n; k++) if (values[k]! < values[best]!) best = k;
  return { x: points[best]!, value: values[best]!, evaluations };
}
