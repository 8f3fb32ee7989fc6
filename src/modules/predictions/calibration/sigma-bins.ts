import { RollingWindow, float32 } from './rolling-window.ts';

/**
 * Which tercile of its recent history the predictive σ is in: 0 (low), 1, 2 (high). The cut points are the
 * 1/3 and 2/3 quantiles of log σ over a rolling window of scored forecasts, recomputed every `refitEvery`
 * additions; until the first fit every σ is in the middle bin. Used to run one conformal layer per bin
 * (Mondrian conformal prediction), so 80 % coverage holds within each σ tercile, not only on average.
 */
export class SigmaBins {
  /** log σ in single precision: 4 bytes a forecast, and the cut points need no more than 7 digits. */
  private readonly window: RollingWindow<Float32Array>;
  private sinceFit = 0;
  private lo = Number.POSITIVE_INFINITY;
  private hi = Number.POSITIVE_INFINITY;

  constructor(
    readonly windowSize: number,
    readonly refitEvery: number,
    readonly minCount: number,
  ) {
    this.window = new RollingWindow(windowSize, float32);
  }

  /** Bytes of the window as held now. */
  get heldBytes(): number {
    return this.window.heldBytes;
  }

  /** Bytes of the window once full (the sorted copy made at each refit is dropped at once). */
  get maxWindowBytes(): number {
    return this.window.maxBytes;
  }

  bin(sigma: number): 0 | 1 | 2 {
    if (!Number.isFinite(this.lo)) return 1;
    const x = Math.log(sigma);
    return x < this.lo ? 0 : x < this.hi ? 1 : 2;
  }

  /** Records the σ of a scored forecast. */
  add(sigma: number): void {
    if (!(sigma > 0)) return;
    this.window.add(Math.log(sigma));
    const size = this.window.size;
    if (++this.sinceFit >= this.refitEvery && size >= this.minCount) {
      this.sinceFit = 0;
      const sorted = this.window.sorted();
      this.lo = sorted[Math.floor(size / 3)]!;
      this.hi = sorted[Math.floor((2 * size) / 3)]!;
    }
  }
}
