/**
 * Exponentially weighted average forecaster with fixed share (Herbster & Warmuth 1998): after each scored
 * forecast, w_m ← w_m·exp(−η·loss_m), normalize, then mix a share α of uniform weight back in so a member
 * that was bad in one regime can recover in the next. Weights are always a convex combination.
 */
export class FixedShareWeights {
  readonly weights: Float64Array;

  constructor(
    readonly size: number,
    readonly eta: number,
    readonly share: number,
  ) {
    this.weights = new Float64Array(size).fill(1 / size);
  }

  update(losses: ArrayLike<number>): void {
    const w = this.weights;
    let min = Number.POSITIVE_INFINITY;
    for (let k = 0; k < this.size; k++) min = Math.min(min, losses[k]!);
    let sum = 0;
    for (let k = 0; k < this.size; k++) {
      w[k] = w[k]! * Math.exp(-this.eta * (losses[k]! - min));
      sum += w[k]!;
    }
    for (let k = 0; k < this.size; k++) w[k] = (1 - this.share) * (w[k]! / sum) + this.share / this.size;
  }
}
