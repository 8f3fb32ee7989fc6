import type { PredictionRow } from '../repository.ts';
import { PUBLIC_QUANTILES, quantileKey } from '../types.ts';
import { pinball } from './metrics.ts';

/**
 * CRPS of a stored datapoint from its 19 published quantiles (log return vs the baseline), and of the
 * calibrated zero-mean reference: the same quantiles re-centred so their median is the baseline (the same
 * σ and conformal shape with the mean fixed at 0). Both on the same coarse rule, so their ratio is fair.
 */
export function publishedCrps(r: PredictionRow, y: number): { model: number; reference: number } {
  const median = Math.log(r.prediction / r.baseline);
  let model = 0;
  let reference = 0;
  for (const tau of PUBLIC_QUANTILES) {
    const q = Math.log(r.quantiles[quantileKey(tau)]! / r.baseline);
    model += pinball(q, tau, y);
    reference += pinball(q - median, tau, y);
  }
  return {
    model: (2 * model) / PUBLIC_QUANTILES.length,
    reference: (2 * reference) / PUBLIC_QUANTILES.length,
  };
}

const NUMBERS = [
  'generatedAt',
  'confidence',
  'sigma',
  /** CRPS of the published quantiles, and of the calibrated zero-mean reference on them (`publishedCrps`). */
  'crpsPublished',
  'crpsReference',
  /** The stored CRPS of the model and of the EWMA random walk (0 where absent). */
  'crps',
  'crpsRw',
  /** The fitted references' CRPS (NaN where the datapoint carries none). */
  'crpsGarch',
  'crpsHarRv',
] as const;
const FLAGS = ['hit', 'flat', 'covered80', 'covered90'] as const;

export type ScoredNumber = (typeof NUMBERS)[number];
export type ScoredFlag = (typeof FLAGS)[number];
/** The scored datapoints of one symbol × horizon as columns, oldest first (views into the store). */
export type ScoredView = Record<ScoredNumber, Float64Array> & Record<ScoredFlag, Uint8Array>;

/** Bytes one scored datapoint takes in the store (its columns; the store may hold up to twice its rows). */
export const SCORED_ROW_BYTES = NUMBERS.length * 8 + FLAGS.length;

/**
 * The scored datapoints of one symbol × horizon that the live track record needs, as typed columns: what
 * the metrics read, ~76 bytes a datapoint instead of the stored row object (its 19 quantiles and labels).
 * Appended oldest first; the oldest are dropped by time. Hand-written: a ring of parallel typed arrays.
 */
export class ScoredColumns {
  private numbers: Record<ScoredNumber, Float64Array>;
  private flags: Record<ScoredFlag, Uint8Array>;
  private start = 0;
  private end = 0;

  constructor(capacity = 64) {
    this.numbers = columns(NUMBERS, capacity, Float64Array);
    this.flags = columns(FLAGS, capacity, Uint8Array);
  }

  get length(): number {
    return this.end - this.start;
  }

  /** When the newest datapoint held was generated (−∞ when none is). */
  get newest(): number {
    return this.length ? this.numbers.generatedAt[this.end - 1]! : Number.NEGATIVE_INFINITY;
  }

  /** Appends a scored row (its realized price set), newer than every row held. */
  append(r: PredictionRow): void {
    if (this.end === this.numbers.generatedAt.length) this.reserve();
    const y = Math.log(r.realized! / r.baseline);
    const c = publishedCrps(r, y);
    const i = this.end++;
    const n = this.numbers;
    n.generatedAt[i] = r.generated_at;
    n.confidence[i] = r.confidence;
    n.sigma[i] = r.sigma;
    n.crpsPublished[i] = c.model;
    n.crpsReference[i] = c.reference;
    n.crps[i] = r.crps ?? 0;
    n.crpsRw[i] = r.crps_rw ?? 0;
    n.crpsGarch[i] = r.crps_garch ?? Number.NaN;
    n.crpsHarRv[i] = r.crps_har_rv ?? Number.NaN;
    const f = this.flags;
    f.hit[i] = r.hit ? 1 : 0;
    f.flat[i] = r.prediction === r.baseline ? 1 : 0;
    f.covered80[i] = r.covered80 ? 1 : 0;
    f.covered90[i] = r.covered90 ? 1 : 0;
  }

  /** Drops the rows generated before `cutoff`. */
  dropBefore(cutoff: number): void {
    const t = this.numbers.generatedAt;
    while (this.start < this.end && t[this.start]! < cutoff) this.start++;
  }

  /** The rows held, oldest first, as views (valid until the next append). */
  view(): ScoredView {
    const out = {} as ScoredView;
    for (const k of NUMBERS) out[k] = this.numbers[k].subarray(this.start, this.end);
    for (const k of FLAGS) out[k] = this.flags[k].subarray(this.start, this.end);
    return out;
  }

  /** Bytes held by the columns (capacity, not just rows in use). */
  get bytes(): number {
    return this.numbers.generatedAt.length * SCORED_ROW_BYTES;
  }

  /** Makes room at the end: moves the rows to the front, and doubles the capacity if they fill over half. */
  private reserve(): void {
    const n = this.length;
    const capacity = this.numbers.generatedAt.length;
    const size = n * 2 > capacity ? capacity * 2 : capacity;
    this.numbers = moved(this.numbers, NUMBERS, this.start, this.end, size, Float64Array);
    this.flags = moved(this.flags, FLAGS, this.start, this.end, size, Uint8Array);
    this.start = 0;
    this.end = n;
  }
}

type TypedCtor<A> = new (n: number) => A;

function columns<K extends string, A>(names: readonly K[], n: number, Ctor: TypedCtor<A>): Record<K, A> {
  const out = {} as Record<K, A>;
  for (const k of names) out[k] = new Ctor(n);
  return out;
}

function moved<K extends string, A extends Float64Array | Uint8Array>(
  from: Record<K, A>,
  names: readonly K[],
  start: number,
  end: number,
  size: number,
  Ctor: TypedCtor<A>,
): Record<K, A> {
  const out = {} as Record<K, A>;
  for (const k of names) {
    // Same size: moved within its own buffer (`set` copies overlapping ranges correctly).
    const col = size === from[k].length ? from[k] : new Ctor(size);
    col.set(from[k].subarray(start, end));
    out[k] = col;
  }
  return out;
}
