import type { Clock } from '../../shared/clock.ts';
import { type Horizon, clampLimit } from '../identifiers/index.ts';
import type { ByteCache } from './byte-cache.ts';
import type { TouchCalibrator } from './calibration/touch.ts';
import { levelProbabilities } from './level-probability.ts';
import { outlookOf } from './outlook.ts';
import { performanceReport } from './performance.ts';
import { presentPageDatapoint } from './present.ts';
import { type PredictionsQuery, type ReadModel, newestPerBucket } from './read-model.ts';
import type { PredictionRepository } from './repository.ts';

const MINUTE = 60_000;

/** Where one symbol's answer stands (see `symbolOutlook`). */
export interface SymbolProvenance {
  source: string;
  asOf: number | null;
  stale: boolean;
  backfilling: boolean;
}

/**
 * What readers are answered with, from the read model (bodies serialized once per refresh and cached as
 * bytes) or, for pages further back, from the stored record; each answer with where it stands.
 */
export function createReaders(deps: {
  readModel: ReadModel;
  cache: ByteCache;
  repository: Pick<PredictionRepository, 'between'>;
  clock: Clock;
  /** The refresh period on the data's clock. */
  refreshMs: number;
  source?: string;
  minIndependentOutcomes?: number;
  fundingKnown: (symbol: string | undefined) => boolean | undefined;
  warmingUp: (symbol: string) => boolean;
  /** A symbol's walk-forward touch excursions (the level probabilities' touch). */
  touchOf: (symbol: string) => Pick<TouchCalibrator<Horizon>, 'peek'>;
}) {
  const { readModel, cache, repository, clock, refreshMs, warmingUp } = deps;

  /**
   * A page from the stored record between `from` and `to` (inclusive): the newest `limit` granularity buckets
   * of that span. Paging back: ask again with `to` just before the first datapoint of the page.
   */
  async function predictionsBetween(q: PredictionsQuery, from: number, to: number): Promise<Buffer> {
    const limit = clampLimit(q.limit);
    const rows = await repository.between(q.symbol, q.horizon, from, to);
    return Buffer.from(
      JSON.stringify({ data: newestPerBucket(rows, { ...q, limit }).map((r) => presentPageDatapoint(r, q)) }),
    );
  }

  /**
   * Where the answers come from and how fresh they are: the source, the newest refresh (on the data's own
   * clock) and whether that is older than 2.5 refresh periods now — computed at each call, never stored.
   */
  function provenance(): { source: string; asOf: number | null; stale: boolean } {
    const asOf = readModel.lastRefresh || null;
    return {
      source: deps.source ?? 'simulated',
      asOf,
      stale: asOf === null || clock.now() - asOf > 2.5 * refreshMs,
    };
  }

  function predictions(q: PredictionsQuery): Buffer {
    const limit = clampLimit(q.limit);
    const key = `p|${q.symbol}|${q.horizon}|${q.granularityMs}|${limit}|${q.quantiles ? 1 : 0}${q.outcome ? 1 : 0}${q.modelVersion ? 1 : 0}${q.backfilled ? 1 : 0}`;
    return cache.bytes(key, () => ({
      data: readModel.select({ ...q, limit }).map((r) => presentPageDatapoint(r, q)),
    }));
  }

  const generatedAt = () => readModel.lastRefresh || clock.now();

  function outlook(symbol: string | undefined): Buffer {
    return cache.bytes(`o|${symbol ?? '*'}`, () =>
      outlookOf(symbol, {
        latest: readModel.latest,
        gaps: readModel.gaps,
        generatedAt,
        fundingKnown: deps.fundingKnown,
      }),
    );
  }

  /**
   * One symbol's outlook bytes and where they stand: the time of the newest datapoint they summarize (on the
   * data's own clock; null before the symbol's first refresh), stale when that is older than 2.5 refresh
   * periods now, backfilling while the symbol still warms up — the provenance computed at each call.
   */
  function symbolOutlook(symbol: string): { body: Buffer; provenance: SymbolProvenance } {
    const asOf = cache.value(`oa|${symbol}`, () => {
      let newest = 0;
      for (const r of readModel.latest) if (r.symbol === symbol) newest = Math.max(newest, r.generated_at);
      return newest || null;
    });
    return {
      body: outlook(symbol),
      provenance: {
        source: deps.source ?? 'simulated',
        asOf,
        stale: asOf === null || clock.now() - asOf > 2.5 * refreshMs,
        backfilling: warmingUp(symbol),
      },
    };
  }

  /**
   * The probabilities of price levels from the newest datapoint of a symbol × horizon, with that datapoint and
   * where it stands; undefined before the first forecast of that symbol × horizon.
   */
  function probabilities(symbol: string, horizon: Horizon, levels: readonly number[]) {
    const row = readModel.newest(symbol, horizon);
    if (!row) return undefined;
    const source = deps.source ?? 'simulated';
    const stale = clock.now() - row.generated_at > 2.5 * refreshMs;
    return {
      symbol,
      horizon,
      datapoint: {
        generatedAt: new Date(row.generated_at).toISOString(),
        horizon,
        baseline: row.baseline,
        prediction: row.prediction,
        quantiles: row.quantiles,
        modelVersion: row.model_version,
        backfilled: row.backfilled,
        source,
        stale,
      },
      levels: levelProbabilities(row, levels, deps.touchOf(symbol).peek(horizon)),
    };
  }

  function performance(): Buffer {
    return cache.bytes('perf', () =>
      performanceReport({
        allScored: readModel.allScored,
        stepMs: Math.max(refreshMs, MINUTE),
        minIndependentOutcomes: deps.minIndependentOutcomes ?? 30,
        gaps: readModel.gaps,
        generatedAt,
      }),
    );
  }

  return { predictionsBetween, provenance, predictions, outlook, symbolOutlook, probabilities, performance };
}
