import { solveSpd } from '../math.ts';

/**
 * Ridge regression learned online: sufficient statistics (XᵀX, Xᵀy) with exponential forgetting, solved by
 * Cholesky on the normal equations every `refitEvery` updates. At ≤ 10 features this is microseconds, exact,
 * and needs no library. The penalty `lambda` is in pseudo-observations pulling every coefficient (the
 * intercept included) to 0, i.e. towards "no forecast"; overlapping targets make samples far from
 * independent, so it is large.
 */
export class OnlineRidge {
  private readonly xtx: Float64Array;
  private readonly xty: Float64Array;
  private beta: Float64Array;
  private pending = 0;
  count = 0;

  constructor(
    readonly dim: number,
    readonly lambda: number,
    readonly forget: number,
    readonly refitEvery = 100,
  ) {
    const n = dim + 1;
    this.xtx = new Float64Array(n * n);
    this.xty = new Float64Array(n);
    this.beta = new Float64Array(n);
  }

  predict(x: Float64Array): number {
    let y = this.beta[this.dim]!;
    for (let k = 0; k < this.dim; k++) y += this.beta[k]! * x[k]!;
    return y;
  }

  update(x: Float64Array, y: number): void {
    const n = this.dim + 1;
    const f = this.forget;
    for (let a = 0; a < n; a++) {
      const xa = a < this.dim ? x[a]! : 1;
      this.xty[a] = f * this.xty[a]! + xa * y;
      for (let b = 0; b < n; b++) {
        const xb = b < this.dim ? x[b]! : 1;
        this.xtx[a * n + b] = f * this.xtx[a * n + b]! + xa * xb;
      }
    }
    this.count++;
    if (++this.pending >= this.refitEvery) this.refit();
  }

  refit(): void {
    const n = this.dim + 1;
    const a = Float64Array.from(this.xtx);
    for (let k = 0; k < n; k++) a[k * n + k] = a[k * n + k]! + this.lambda;
    this.beta = solveSpd(a, this.xty, n);
    this.pending = 0;
  }

  coefficients(): Float64Array {
    return this.beta;
  }
}
