import { mulberry32 } from '../../../shared/random.ts';
import { normCdf, sortedQuantile } from '../math.ts';
import { calibrationOverGroups, equalCountGroups, meanOverGroups } from '../scoring/metrics.ts';
import { WorldLevels } from './calibrated-world-levels.ts';

/** z of the central 80 % interval of a normal distribution. */
const Z80 = 1.2815515655446004;

export interface CalibratedWorldInput {
  /** Times of the scored forecasts, ascending (ms). */
  t: ArrayLike<number>;
  /** Each forecast's mean and σ of the log return over the horizon. */
  mu: ArrayLike<number>;
  sigma: ArrayLike<number>;
  stepMs: number;
  horizonMs: number;
  replications: number;
  seed: number;
  /** Levels (multiples of σ from the baseline) whose end-above and touch ECE the world also gives. */
  levelSigmas?: readonly number[];
}

/** 5th percentile, median and 95th percentile of a figure over the replications. */
export interface Spread {
  p5: number;
  median: number;
  p95: number;
}

export interface CalibratedWorld {
  replications: number;
  /** Independent outcomes in the period (its length ÷ the horizon): what the noise scales with. */
  independentOutcomes: number;
  eceEqualMass: Spread;
  coverage80: Spread;
  coverage80BySigmaTercile: [Spread, Spread, Spread];
  hitRate: Spread;
  /** The equal-mass ECE of the level probabilities (calibrated-world-levels.ts), per level. */
  levels?: { sigmas: number; endAbove: Spread; touch?: Spread }[];
  /** Share of replications in which each target holds although the forecaster is exactly right. */
  meets: {
    /** Equal-mass ECE ≤ 0.03. */
    eceEqualMass: number;
    /** 80 % coverage in 0.78–0.82 overall. */
    coverage80: number;
    /** 80 % coverage in 0.78–0.82 in all three σ terciles at once. */
    coverage80EveryTercile: number;
    /** Hit rate ≤ 58 % (the leakage alarm stays silent). */
    hitRateAtMost58: number;
  };
}

/**
 * What the report's calibration figures look like for a forecaster that is exactly right, on this period.
 * A price path is drawn step by step with the model's own σ and mean (the variance and drift of each step
 * are those of the latest forecast, spread evenly over the horizon), so the outcomes of overlapping
 * forecasts overlap as the real ones do and calm and stormy weeks come where they came. The "oracle" knows
 * each horizon's exact distribution, N(Σ drift, Σ variance), and publishes its side and confidence
 * Φ(|M|/S) and its 80 % interval from it; the report's metrics are computed on its forecasts as on the
 * model's. Any miss of a target in this world is sampling noise, so the share of replications that meet a
 * target is the best a perfect model could hope for on data of this length. Gaussian steps: real returns
 * have heavier tails, so real noise is, if anything, larger.
 */
export function calibratedWorld(input: CalibratedWorldInput): CalibratedWorld | undefined {
  const { t, mu, sigma, stepMs, horizonMs } = input;
  const n = t.length;
  if (n < 30 || input.replications < 1) return undefined;
  const overlap = Math.max(1, Math.round(horizonMs / stepMs));
  const t0 = t[0]!;
  const startStep = new Int32Array(n);
  for (let k = 0; k < n; k++) startStep[k] = Math.round((t[k]! - t0) / stepMs);
  const steps = startStep[n - 1]! + overlap + 1;
  // Step j is the return over (t0 + (j − 1)·step, t0 + j·step]; it carries the latest forecast's rates.
  const drift = new Float64Array(steps);
  const scale = new Float64Array(steps);
  for (let j = 1, k = 0; j < steps; j++) {
    while (k + 1 < n && startStep[k + 1]! < j) k++;
    drift[j] = mu[k]! / overlap;
    scale[j] = sigma[k]! / Math.sqrt(overlap);
  }
  const cumDrift = cumulative(drift);
  const cumVar = cumulative(scale.map((s) => s * s));
  const m = new Float64Array(n);
  const s = new Float64Array(n);
  const conf = new Float64Array(n);
  const up = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    const a = startStep[k]!;
    m[k] = cumDrift[a + overlap]! - cumDrift[a]!;
    s[k] = Math.sqrt(cumVar[a + overlap]! - cumVar[a]!);
    const pUp = normCdf(m[k]! / s[k]!);
    up[k] = m[k]! >= 0 ? 1 : 0;
    conf[k] = up[k] ? pUp : 1 - pUp;
  }
  // Confidence and σ do not depend on the draw: the decile and tercile groups are fixed once.
  const deciles = equalCountGroups(conf, 10);
  const terciles = equalCountGroups(s, 3);

  const rand = mulberry32(input.seed);
  const normal = () => {
    const u = rand() || Number.MIN_VALUE;
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
  const shock = new Float64Array(steps);
  const hit = new Uint8Array(n);
  const cover = new Uint8Array(n);
  const ece: number[] = [];
  const cov: number[] = [];
  const byTercile: number[][] = [[], [], []];
  const hits: number[] = [];
  const meets = { eceEqualMass: 0, coverage80: 0, coverage80EveryTercile: 0, hitRateAtMost58: 0 };
  const inBand = (c: number) => c >= 0.78 && c <= 0.82;
  const levels = input.levelSigmas && new WorldLevels(input.levelSigmas, m, s, sigma, overlap, input.seed);
  const path = levels && new Float64Array(steps);
  for (let r = 0; r < input.replications; r++) {
    for (let j = 1; j < steps; j++) shock[j] = shock[j - 1]! + scale[j]! * normal();
    if (levels && path) {
      for (let j = 0; j < steps; j++) path[j] = cumDrift[j]! + shock[j]!;
      levels.add(path, startStep);
    }
    let h = 0;
    let c = 0;
    for (let k = 0; k < n; k++) {
      const a = startStep[k]!;
      const y = m[k]! + shock[a + overlap]! - shock[a]!;
      hit[k] = (up[k] ? y > 0 : y < 0) ? 1 : 0;
      cover[k] = Math.abs(y - m[k]!) <= Z80 * s[k]! ? 1 : 0;
      h += hit[k]!;
      c += cover[k]!;
    }
    const e = calibrationOverGroups(deciles, conf, hit).ece;
    const terc = meanOverGroups(terciles, cover);
    ece.push(e);
    cov.push(c / n);
    hits.push(h / n);
    for (let i = 0; i < 3; i++) byTercile[i]!.push(terc[i]!);
    if (e <= 0.03) meets.eceEqualMass++;
    if (inBand(c / n)) meets.coverage80++;
    if (terc.every(inBand)) meets.coverage80EveryTercile++;
    if (h / n <= 0.58) meets.hitRateAtMost58++;
  }
  const R = input.replications;
  return {
    replications: R,
    independentOutcomes: (t[n - 1]! - t0 + horizonMs) / horizonMs,
    eceEqualMass: spread(ece),
    coverage80: spread(cov),
    coverage80BySigmaTercile: [spread(byTercile[0]!), spread(byTercile[1]!), spread(byTercile[2]!)],
    hitRate: spread(hits),
    ...(levels && {
      levels: levels.result().map((l) => ({
        sigmas: l.sigmas,
        endAbove: spread(l.endAbove),
        ...(l.touch && { touch: spread(l.touch) }),
      })),
    }),
    meets: {
      eceEqualMass: meets.eceEqualMass / R,
      coverage80: meets.coverage80 / R,
      coverage80EveryTercile: meets.coverage80EveryTercile / R,
      hitRateAtMost58: meets.hitRateAtMost58 / R,
    },
  };
}

/** Running sums over steps, as the path is: out[j] = x[1] + … + x[j] (step 0 is the start). */
function cumulative(x: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  for (let j = 1; j < x.length; j++) out[j] = out[j - 1]! + x[j]!;
  return out;
}

function spread(values: number[]): Spread {
  const sorted = Float64Array.from(values).sort();
  return {
    p5: sortedQuantile(sorted, 0.05),
    median: sortedQuantile(sorted, 0.5),
    p95: sortedQuantile(sorted, 0.95),
  };
}
