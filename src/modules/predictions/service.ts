import type { Bus } from '../../shared/bus.ts';
import { topics } from '../../shared/bus.ts';
import type { PredictionsTopics } from './topics.ts';
import { type Clock, onClock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import { HORIZONS, HORIZON_MS, MAX_LIMIT, type Horizon, clampLimit } from '../identifiers/index.ts';
import { GRID, GRID_INDEX } from './calibration/conformal.ts';
import { factorShares, toDatapoint, toRow } from './datapoint.ts';
import { BarSeries } from './features/series.ts';
import { createFundingFeed } from './funding-feed.ts';
import { MODEL_VERSION, type HorizonForecast, SymbolForecaster } from './models/engine.ts';
import type { PredictionGap, PredictionRepository, PredictionRow, ScoreUpdate } from './repository.ts';
import { crpsFromGrid, crpsGaussian, pinball } from './scoring/metrics.ts';
import { roundDeep, trackRecord } from './scoring/track-record.ts';
import { type Bar, FACTORS, type Factor, type FundingPoint, PUBLIC_QUANTILES, quantileKey } from './types.ts';

/** What the engine needs from the market module (its `MarketService` satisfies this structurally). */
export interface PredictionsMarketPort {
  symbols(): string[];
  snapshot(symbol: string):
    | {
        mid: number | null;
        bookImbalance: number | null;
        tradeImbalance5m: number | null;
        fundingRate: number | null;
        basisBps: number | null;
      }
    | undefined;
  recentCandles(symbol: string, interval: '1m', count: number): Bar[];
  /** Settled perpetual funding rates in [fromMs, toMs); absent or empty for spot-only sources. */
  fundingHistory?(symbol: string, fromMs: number, toMs: number): Promise<FundingPoint[]>;
}

export interface PredictionsServiceDeps {
  market: PredictionsMarketPort;
  repository: PredictionRepository;
  clock: Clock;
  bus?: Bus<PredictionsTopics>;
  refreshMs: number;
  /** 1m candles requested per symbol and refresh (the feature windows reach back 72 h). */
  candleHistory?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
  /** Where informational lines go (the backfill's count). */
  note?: (msg: string, extra?: Record<string, unknown>) => void;
  /** What the forecasts are made from, as answers name it: `simulated`, `replay` or `ccxt:<venues>`. */
  source?: string;
  /**
   * Independent outcomes a track-record cell needs before its figures are shown (default 30); outcomes of
   * overlapping horizons are correlated, so the datapoints needed are this × horizon ÷ refresh period.
   */
  minIndependentOutcomes?: number;
}

export interface PredictionsQuery {
  symbol: string;
  horizon: Horizon;
  granularityMs: number;
  limit: number;
  quantiles?: boolean;
  outcome?: boolean;
  modelVersion?: boolean;
  /** Adds `backfilled` (made after the fact over stored candles, not live) to each datapoint. */
  backfilled?: boolean;
}

const MINUTE = 60_000;
const TRACK_RECORD_MS = 30 * 24 * 60 * MINUTE;
/** How far back a fresh install (or the span after an outage) is backfilled: the default 96 × 15 min page. */
const BACKFILL_MS = 24 * 60 * MINUTE;
/** Spacing of backfilled datapoints (every granularity down to 5 min gets a full page). */
const BACKFILL_STEP_MS = 5 * MINUTE;
/** Longest stretch the warm-up keeps the event loop before letting other work run (a model step can add a few ms). */
const WARM_UP_SLICE_MS = 10;

interface Live {
  row: PredictionRow;
  forecast?: HorizonForecast;
}

/**
 * The predictions service. The worker role runs `start()`: every `refreshMs` it forecasts each symbol ×
 * horizon from closed 1m candles and the market snapshot, stores the datapoints, scores the stored ones
 * whose horizon has passed (and lets the models learn from them), and publishes the new datapoints on the
 * bus. Readers are served from memory; response bodies are serialized once per refresh and cached as bytes.
 */
export function createPredictionsService(deps: PredictionsServiceDeps) {
  const { market, repository, clock } = deps;
  // The refresh timer runs on wall time; everything compared with data times uses the period as it passes on
  // the data's clock (a replay at speed 60 moves an hour of recorded time per wall-clock minute).
  const wallRefreshMs = deps.refreshMs;
  const refreshMs = onClock(clock, wallRefreshMs);
  const history = deps.candleHistory ?? 3 * 24 * 60 + 120;
  const series = new Map<string, BarSeries>();
  const models = new Map<string, SymbolForecaster>();
  /** Recent rows per `${symbol}|${horizon}`, oldest first (enough for 96 points at 1 h granularity). */
  const recent = new Map<string, Live[]>();
  const unscored: Live[] = [];
  const keepMs = MAX_LIMIT * 60 * MINUTE + 2 * refreshMs;
  let cache = new Map<string, Buffer>();
  let latest: PredictionRow[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let lastRefresh = 0;
  let lastRefreshDurationMs: number | null = null;
  /** When a refresh's datapoints were last stored: the start of a gap if the next one comes late. */
  let lastStored = 0;
  let gaps: PredictionGap[] = [];
  let term: LeaderTerm | undefined;
  /** idle: neither started nor following; starting: loading and warming up; running: the refresh job;
   * following: an API replica reloading what the workers publish. */
  let phase: 'idle' | 'starting' | 'running' | 'following' = 'idle';
  const funding = createFundingFeed({ history: market.fundingHistory?.bind(market), log: deps.log });
  /** Rates from 8 h before a series' first bar on, so the first settled rate and its predecessor are known. */
  const fundingFrom = (s: BarSeries) => (s.length ? s.closeTime[0]! : clock.now()) - 8 * 60 * MINUTE;

  const keyOf = (s: string, h: string) => `${s}|${h}`;

  function seriesOf(symbol: string): BarSeries {
    let s = series.get(symbol);
    if (!s) {
      s = new BarSeries(symbol, MINUTE);
      series.set(symbol, s);
    }
    for (const c of market.recentCandles(symbol, '1m', history)) s.append(c);
    return s;
  }

  function modelOf(symbol: string): SymbolForecaster {
    let m = models.get(symbol);
    if (!m) {
      m = new SymbolForecaster(symbol, HORIZONS, { stepMs: Math.max(refreshMs, MINUTE) });
      models.set(symbol, m);
    }
    return m;
  }

  function remember(row: PredictionRow, forecast?: HorizonForecast): Live {
    const live: Live = { row, forecast };
    const k = keyOf(row.symbol, row.horizon);
    let list = recent.get(k);
    if (!list) {
      list = [];
      recent.set(k, list);
    }
    list.push(live);
    const cutoff = row.generated_at - keepMs;
    let drop = 0;
    while (drop < list.length && list[drop]!.row.generated_at < cutoff) drop++;
    if (drop) list.splice(0, drop);
    return live;
  }

  /**
   * Walk-forward replay of the candles in memory so a fresh process starts with learned weights. Forecasts
   * made at or after `backfillFrom` (every `BACKFILL_STEP_MS`) are returned as backfilled rows: each one is
   * what the model said at its instant from the candles closed by then — the same walk-forward pass, so no
   * forecast sees a later candle. Settled funding rates come from the source's history, read only up to each
   * instant; live-only inputs (order book, trade flow, the predicted funding rate and basis) did not exist for
   * past instants, so they contribute nothing to backfilled forecasts.
   */
  function* warmUpSteps(symbol: string, backfillFrom: number): Generator<void, PredictionRow[]> {
    const backfilled: PredictionRow[] = [];
    let nextBackfill = Math.ceil(backfillFrom / BACKFILL_STEP_MS) * BACKFILL_STEP_MS;
    const s = seriesOf(symbol);
    const model = modelOf(symbol);
    const basket = [...series.values()];
    const step = Math.max(refreshMs, MINUTE);
    const pending: HorizonForecast[] = [];
    let next = 0;
    for (let i = 0; i < s.length; i++) {
      const t = s.closeTime[i]!;
      while (pending.length && pending[0]!.t + HORIZON_MS[pending[0]!.horizon] <= t) {
        const f = pending.shift()!;
        const j = s.indexAt(f.t + HORIZON_MS[f.horizon]);
        if (j >= 0) model.learn(f, s.close[j]!);
      }
      if (t < next) continue;
      next = t + step;
      const fs = model.forecast({ series: s, basket, funding: funding.series(symbol) }, t);
      yield;
      if (fs) {
        if (t >= nextBackfill) {
          nextBackfill = Math.floor(t / BACKFILL_STEP_MS) * BACKFILL_STEP_MS + BACKFILL_STEP_MS;
          for (const f of fs) backfilled.push({ ...toRow(symbol, f, s), backfilled: true });
        }
        pending.push(...fs);
        pending.sort((a, b) => a.t + HORIZON_MS[a.horizon] - (b.t + HORIZON_MS[b.horizon]));
      }
    }
    return backfilled;
  }

  /** The warm-up of one symbol in one go (tests and benchmarks, where nothing else waits on the loop). */
  function warmUp(symbol: string, backfillFrom = Number.POSITIVE_INFINITY): PredictionRow[] {
    const steps = warmUpSteps(symbol, backfillFrom);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The same warm-up in slices of at most `WARM_UP_SLICE_MS`, giving the event loop back in between: a server
   * warming up still answers requests (and /readyz) promptly instead of stalling for the whole replay.
   */
  async function warmUpInSlices(symbol: string, backfillFrom: number): Promise<PredictionRow[]> {
    const steps = warmUpSteps(symbol, backfillFrom);
    let sliceStart = globalThis.performance.now();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (globalThis.performance.now() - sliceStart >= WARM_UP_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = globalThis.performance.now();
      }
    }
  }

  /**
   * Warms every symbol's model up and backfills the span the stored record lacks — the last 24 h on a fresh
   * install, or what came after the newest stored datapoint after an outage. Backfilled rows are stored with
   * their mark, shown in pages (`include=backfilled` tells them apart), scored when their horizon has passed,
   * and left out of the live track record.
   */
  async function warmUpAndBackfill(now: number): Promise<number> {
    for (const sym of market.symbols()) seriesOf(sym);
    let newest = 0;
    for (const list of recent.values()) for (const l of list) newest = Math.max(newest, l.row.generated_at);
    const from = Math.max(now - BACKFILL_MS, newest + refreshMs);
    const rows: PredictionRow[] = [];
    for (const sym of market.symbols()) {
      await funding.update(sym, fundingFrom(seriesOf(sym)), now);
      rows.push(...(await warmUpInSlices(sym, from)));
    }
    rows.sort((a, b) => a.generated_at - b.generated_at);
    for (const r of rows) unscored.push(remember(r));
    if (rows.length) {
      await repository.insert(rows);
      cache = new Map();
      deps.note?.('predictions backfilled', { datapoints: rows.length, from: new Date(from).toISOString() });
    }
    return rows.length;
  }

  /** The realized price at time T: the close of the last 1m bar that closed at or before T (≤ 2 min old). */
  function realizedAt(symbol: string, target: number): number | undefined {
    const s = series.get(symbol);
    if (!s) return undefined;
    const j = s.indexAt(target);
    if (j < 0 || target - s.closeTime[j]! > 2 * MINUTE) return undefined;
    return s.close[j];
  }

  function scoreDue(now: number): ScoreUpdate[] {
    const updates: ScoreUpdate[] = [];
    const scoredRows: PredictionRow[] = [];
    for (let k = unscored.length - 1; k >= 0; k--) {
      const live = unscored[k]!;
      const r = live.row;
      const target = r.generated_at + HORIZON_MS[r.horizon];
      if (target > now) continue;
      const price = realizedAt(r.symbol, target);
      if (price === undefined) {
        // No bar at the target (outage): give up after a day, unscored.
        if (now - target > 24 * 60 * MINUTE) unscored.splice(k, 1);
        continue;
      }
      unscored.splice(k, 1);
      const y = Math.log(price / r.baseline);
      const up = r.prediction >= r.baseline;
      const hit = up ? price > r.baseline : price < r.baseline;
      let crps: number;
      let q10: number;
      let q90: number;
      let q05: number;
      let q95: number;
      if (live.forecast) {
        const q = live.forecast.views.ensemble!.quantiles;
        crps = crpsFromGrid(q, y);
        [q05, q10, q90, q95] = [0.05, 0.1, 0.9, 0.95].map((l) => q[GRID_INDEX(l)]!) as [
          number,
          number,
          number,
          number,
        ];
        modelOf(r.symbol).learn(live.forecast, price);
      } else {
        // After a restart only the published quantiles remain: a coarser rule on p05…p95 (see docs).
        const lq = PUBLIC_QUANTILES.map((l) => Math.log(r.quantiles[quantileKey(l)]! / r.baseline));
        crps =
          (2 * PUBLIC_QUANTILES.reduce((s, l, i) => s + pinball(lq[i]!, l, y), 0)) / PUBLIC_QUANTILES.length;
        [q05, q10, q90, q95] = [lq[0]!, lq[1]!, lq[17]!, lq[18]!];
      }
      const update: ScoreUpdate = {
        symbol: r.symbol,
        horizon: r.horizon,
        generated_at: r.generated_at,
        realized: price,
        hit,
        crps,
        crps_rw: crpsGaussian(0, r.sigma_rw, y),
        covered80: q10 <= y && y <= q90,
        covered90: q05 <= y && y <= q95,
        scored_at: now,
      };
      Object.assign(r, update);
      live.forecast = undefined;
      updates.push(update);
      scoredRows.push(r);
    }
    trackScored(scoredRows);
    return updates;
  }

  async function refresh(): Promise<PredictionRow[]> {
    const now = clock.now();
    const symbols = market.symbols();
    for (const sym of symbols) seriesOf(sym);
    const basket = [...series.values()];
    const rows: PredictionRow[] = [];
    for (const sym of symbols) {
      const snap = market.snapshot(sym);
      const live = {
        mid: snap?.mid ?? undefined,
        bookImbalance: snap?.bookImbalance ?? undefined,
        tradeFlowImbalance: snap?.tradeImbalance5m ?? undefined,
        fundingRate: snap?.fundingRate ?? undefined,
        basisBps: snap?.basisBps ?? undefined,
      };
      const s = series.get(sym)!;
      await funding.update(sym, fundingFrom(s), now);
      const fs = modelOf(sym).forecast({ series: s, basket, funding: funding.series(sym) }, now, live);
      if (!fs) continue;
      for (const f of fs) {
        const row = toRow(sym, f, s);
        rows.push(row);
        unscored.push(remember(row, f));
      }
    }
    const updates = scoreDue(now);
    latest = rows;
    lastRefresh = now;
    cache = new Map();
    await repository.record(rows, updates, term);
    await markGap(now);
    lastStored = now;
    if (deps.bus && rows.length) await deps.bus.publish(topics.predictionsRefreshed, rows.map(toDatapoint));
    return rows;
  }

  function select(q: PredictionsQuery): PredictionRow[] {
    return newestPerBucket(
      (recent.get(keyOf(q.symbol, q.horizon)) ?? []).map((l) => l.row),
      q,
    );
  }

  /** Newest datapoint in each granularity bucket, newest `limit` buckets, oldest first. */
  function newestPerBucket(list: readonly PredictionRow[], q: PredictionsQuery): PredictionRow[] {
    const out: PredictionRow[] = [];
    let bucket = Number.NaN;
    for (let k = list.length - 1; k >= 0 && out.length < q.limit; k--) {
      const r = list[k]!;
      const b = Math.floor(r.generated_at / q.granularityMs);
      if (b === bucket) continue;
      bucket = b;
      out.push(r);
    }
    return out.reverse();
  }

  function render(r: PredictionRow, q: PredictionsQuery): Record<string, unknown> {
    const d: Record<string, unknown> = { ...toDatapoint(r) };
    if (q.quantiles) d.quantiles = r.quantiles;
    if (q.outcome)
      d.outcome =
        r.scored_at === null
          ? null
          : { realized: r.realized, hit: r.hit, scoredAt: new Date(r.scored_at).toISOString() };
    if (q.modelVersion) d.modelVersion = r.model_version;
    if (q.backfilled) d.backfilled = r.backfilled;
    return d;
  }

  function bytes(key: string, build: () => unknown): Buffer {
    let b = cache.get(key);
    if (!b) {
      b = Buffer.from(JSON.stringify(build()));
      cache.set(key, b);
    }
    return b;
  }

  /**
   * A page from the stored record between `from` and `to` (inclusive): the newest `limit` granularity buckets
   * of that span. Paging back: ask again with `to` just before the first datapoint of the page.
   */
  async function predictionsBetween(q: PredictionsQuery, from: number, to: number): Promise<Buffer> {
    const limit = clampLimit(q.limit);
    const rows = await repository.between(q.symbol, q.horizon, from, to);
    return Buffer.from(
      JSON.stringify({ data: newestPerBucket(rows, { ...q, limit }).map((r) => render(r, q)) }),
    );
  }

  /**
   * Where the answers come from and how fresh they are: the source, the newest refresh (on the data's own
   * clock) and whether that is older than 2.5 refresh periods now — computed at each call, never stored.
   */
  function provenance(): { source: string; asOf: number | null; stale: boolean } {
    const asOf = lastRefresh || null;
    return {
      source: deps.source ?? 'simulated',
      asOf,
      stale: asOf === null || clock.now() - asOf > 2.5 * refreshMs,
    };
  }

  function predictions(q: PredictionsQuery): Buffer {
    const limit = clampLimit(q.limit);
    const key = `p|${q.symbol}|${q.horizon}|${q.granularityMs}|${limit}|${q.quantiles ? 1 : 0}${q.outcome ? 1 : 0}${q.modelVersion ? 1 : 0}${q.backfilled ? 1 : 0}`;
    return bytes(key, () => ({ data: select({ ...q, limit }).map((r) => render(r, q)) }));
  }

  /** Whether funding reaches the model: known where the model runs, undefined on an API replica. */
  function fundingKnown(symbol: string | undefined): boolean | undefined {
    const known = (symbol === undefined ? market.symbols() : [symbol]).map((s) => funding.known(s));
    if (known.includes(true)) return true;
    return known.includes(undefined) ? undefined : false;
  }

  function outlookFor(symbol: string | undefined): Record<string, unknown> {
    const rows = latest.filter((r) => symbol === undefined || r.symbol === symbol);
    const horizons: Record<string, unknown> = {};
    const contributions: Record<Factor, number> = { orderflow: 0, funding: 0, macro: 0, ai_residual: 0 };
    let score = 0;
    let conf = 0;
    for (const h of HORIZONS) {
      const hr = rows.filter((r) => r.horizon === h);
      if (!hr.length) continue;
      const edge = hr.reduce((s, r) => s + directionalEdge(r), 0) / hr.length;
      const move = hr.reduce((s, r) => s + r.expected_move_pct, 0) / hr.length;
      const c = hr.reduce((s, r) => s + r.confidence, 0) / hr.length;
      horizons[h] = {
        bias: biasOf(edge),
        score: round(edge),
        expectedMovePct: round(move),
        confidence: round(c),
      };
      score += edge / HORIZONS.length;
      conf += c / HORIZONS.length;
      for (const r of hr)
        for (const f of FACTORS) contributions[f] += (r.factors[f] ?? 0) * Math.abs(r.expected_move_pct);
    }
    const shares = factorShares(contributions);
    const drivers = FACTORS.map((f) => ({
      factor: f,
      direction: shares[f] > 0 ? 'bullish' : shares[f] < 0 ? 'bearish' : 'neutral',
      weight: round(Math.abs(shares[f])),
      reason: reasonOf(f, shares[f], fundingKnown(symbol)),
    })).sort((a, b) => b.weight - a.weight);
    return {
      symbol: symbol ?? null,
      bias: biasOf(score),
      score: round(Math.max(-1, Math.min(1, score))),
      confidence: round(conf),
      horizons,
      drivers,
      modelVersion: MODEL_VERSION,
      generatedAt: new Date(lastRefresh || clock.now()).toISOString(),
      gaps: gaps.map((g) => ({
        from: new Date(g.from_ms).toISOString(),
        to: new Date(g.to_ms).toISOString(),
        missedPoints: g.missed_points,
      })),
    };
  }

  function outlook(symbol: string | undefined): Buffer {
    return bytes(`o|${symbol ?? '*'}`, () => outlookFor(symbol));
  }

  function performanceReport(): Record<string, unknown> {
    const groups = new Map<string, PredictionRow[]>();
    for (const [k, list] of allScored) if (list.length) groups.set(k, list);
    const stepMs = Math.max(refreshMs, MINUTE);
    const data = [...groups.entries()].map(([k, rows]) => {
      const [symbol, horizon] = k.split('|') as [string, Horizon];
      const minSample =
        (deps.minIndependentOutcomes ?? 30) * Math.max(1, Math.round(HORIZON_MS[horizon] / stepMs));
      const span = {
        from: new Date(rows[0]!.generated_at).toISOString(),
        to: new Date(rows[rows.length - 1]!.generated_at).toISOString(),
      };
      if (rows.length < minSample)
        return { symbol, horizon, count: rows.length, minSample, sample: 'insufficient', ...span };
      return {
        symbol,
        horizon,
        ...roundDeep(trackRecord(rows, horizon, stepMs)),
        minSample,
        sample: 'sufficient',
        ...span,
      };
    });
    data.sort((a, b) => `${a.symbol}|${a.horizon}`.localeCompare(`${b.symbol}|${b.horizon}`));
    return {
      data,
      randomWalk: 'Gaussian random walk with EWMA volatility (half-life 1 h)',
      reference:
        'Calibrated zero-mean reference: the published quantiles re-centred on the baseline; both scored on the 19 published quantiles',
      modelVersion: MODEL_VERSION,
      generatedAt: new Date(lastRefresh || clock.now()).toISOString(),
      gaps: gaps.map((g) => ({
        from: new Date(g.from_ms).toISOString(),
        to: new Date(g.to_ms).toISOString(),
        missedPoints: g.missed_points,
      })),
    };
  }

  /** Scored rows per key for the track record (last 30 days), appended as they are scored. */
  const allScored = new Map<string, PredictionRow[]>();
  function trackScored(rows: readonly PredictionRow[]): void {
    const cutoff = clock.now() - TRACK_RECORD_MS;
    for (const r of rows) {
      if (r.scored_at === null || r.backfilled) continue;
      const k = keyOf(r.symbol, r.horizon);
      let list = allScored.get(k);
      if (!list) {
        list = [];
        allScored.set(k, list);
      }
      list.push(r);
      while (list.length && list[0]!.generated_at < cutoff) list.shift();
    }
  }

  function performance(): Buffer {
    return bytes('perf', performanceReport);
  }

  /**
   * A refresh that comes more than 1.5 periods after the last stored one follows an outage (worker down,
   * storage unreachable): the missed refresh points are recorded as a gap, shown in the performance report,
   * rather than left as a silent hole. They are not backfilled: a forecast made now for a past instant would
   * have seen its future.
   */
  async function markGap(now: number): Promise<void> {
    if (!lastStored || now - lastStored <= 1.5 * refreshMs) return;
    const gap: PredictionGap = {
      from_ms: lastStored,
      to_ms: now,
      missed_points: Math.max(1, Math.round((now - lastStored) / refreshMs) - 1),
      recorded_at: now,
    };
    await repository.recordGap(gap);
    gaps = [...gaps.filter((g) => g.from_ms !== gap.from_ms), gap];
    cache = new Map();
  }

  /** Loads the recent record from storage (a process start, or an API replica after a refresh event). */
  async function load(): Promise<void> {
    const now = clock.now();
    const rows = await repository.since(now - Math.max(keepMs, TRACK_RECORD_MS));
    recent.clear();
    allScored.clear();
    unscored.length = 0;
    for (const r of rows) {
      if (r.generated_at >= now - keepMs) remember(r);
      if (r.scored_at === null) unscored.push({ row: r });
    }
    trackScored(rows);
    const newest = rows.length ? rows[rows.length - 1]!.generated_at : 0;
    latest = rows.filter((r) => r.generated_at === newest || now - r.generated_at < refreshMs);
    lastRefresh = newest;
    lastStored = newest;
    gaps = await repository.gaps(now - TRACK_RECORD_MS);
    cache = new Map();
  }

  async function tick(): Promise<void> {
    if (running) return running;
    running = (async () => {
      const started = globalThis.performance.now();
      try {
        await refresh();
        lastRefreshDurationMs = Math.round(globalThis.performance.now() - started);
      } catch (error) {
        deps.log?.('predictions refresh failed', { error: (error as Error).message });
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  return {
    /** One refresh now (tests and benchmarks); errors propagate. */
    refresh,
    tick,
    load,
    warmUp: () => {
      for (const sym of market.symbols()) seriesOf(sym);
      for (const sym of market.symbols()) warmUp(sym);
    },
    /** Warm-up with the backfill of what the stored record lacks (what `start` does); resolves to the count. */
    warmUpAndBackfill: () => warmUpAndBackfill(clock.now()),
    /** Worker role: load, warm up, then refresh every `refreshMs`; writes are fenced by the leader's term. */
    async start(leaderTerm?: LeaderTerm): Promise<void> {
      term = leaderTerm;
      phase = 'starting';
      await load();
      await warmUpAndBackfill(clock.now());
      await tick();
      phase = 'running';
      timer = setInterval(() => void tick(), wallRefreshMs);
      timer.unref?.();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
      if (phase !== 'following') phase = 'idle';
    },
    predictions,
    predictionsBetween,
    provenance,
    /** Where the service is (readiness): start-up work not done yet shows as `starting`. */
    status: () => {
      let scoredRecords = 0;
      for (const list of allScored.values()) scoredRecords += list.length;
      return { phase, lastRefresh: lastRefresh || null, lastRefreshDurationMs, scoredRecords };
    },
    /** An API replica: from now on the record is what the workers publish (`load` on each refresh). */
    following: () => {
      if (phase === 'idle') phase = 'following';
    },
    outlook,
    performance,
    symbols: () => market.symbols(),
    latest: () => latest.map(toDatapoint),
  };
}

export type PredictionsService = ReturnType<typeof createPredictionsService>;

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const biasOf = (score: number) => (score > 0.01 ? 'bullish' : score < -0.01 ? 'bearish' : 'neutral');

/**
 * A datapoint's contribution to the outlook score: the calibrated edge over a coin flip (2·confidence − 1),
 * signed by the predicted direction — and 0 when confidence is at or below 0.5. Below 0.5 the track record
 * says calls of this size land on the predicted side less often than not; turning that into the opposite bias
 * would show "bullish" next to a negative expected move, so the outlook says "no edge" instead.
 */
export function directionalEdge(r: { prediction: number; baseline: number; confidence: number }): number {
  const edge = Math.max(0, 2 * r.confidence - 1);
  return edge === 0 ? 0 : Math.sign(r.prediction - r.baseline) * edge;
}

function reasonOf(f: Factor, share: number, fundingKnown: boolean | undefined): string {
  const dir = share > 0 ? 'up' : share < 0 ? 'down' : 'nowhere in particular';
  switch (f) {
    case 'orderflow':
      return `Order-book and trade-flow imbalance point ${dir}.`;
    case 'funding':
      if (share !== 0) return `Funding rate and basis lean ${dir}.`;
      if (fundingKnown === false) return 'No funding data: this market source has no perpetual funding feed.';
      if (fundingKnown === true)
        return 'Funding rate and basis reach the model but carry no signal it has earned at these horizons.';
      return 'No funding signal at these horizons (no perpetual funding from the source, or none the model has earned).';
    case 'macro':
      return `Market-wide momentum, volatility regime and time of day lean ${dir}.`;
    case 'ai_residual':
      return `The learned residual model adjusts the others ${dir}.`;
  }
}

export { GRID };
