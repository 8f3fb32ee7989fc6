import { topics } from '../../shared/bus.ts';
import { onClock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import { periodicJob } from '../../shared/periodic-job.ts';
import { exponentialBackoff } from '../../shared/backoff.ts';
import { HORIZONS, type Horizon, MAX_LIMIT } from '../identifiers/index.ts';
import { GRID } from './calibration/conformal.ts';
import { createByteCache } from './byte-cache.ts';
import { marketFacts } from './facts.ts';
import { toRow } from './forecast-row.ts';
import { createForecasters } from './forecasters.ts';
import { EMPTY_HEAD, type LedgerHead } from './ledger/chain.ts';
import { type PublicLedgerEntry, presentDatapoint, presentLedgerEntry } from './present.ts';
import { liveInputsOf } from './live-inputs.ts';
import { createReaders } from './readers.ts';
import type { PredictionsServiceDeps } from './ports.ts';
import { createReadModel } from './read-model.ts';
import { createRecordLoader } from './record-load.ts';
import type { LedgerQuery, PredictionGap, PredictionRow } from './repository.ts';
import { type Unpublished, learnDue, scoreDue } from './score-due.ts';
import { warmUp, warmUpAndBackfill } from './warm-up.ts';

export type { PredictionsDerivativesPort, PredictionsMarketPort } from './ports.ts';
export type { PredictionsQuery } from './read-model.ts';

export type { SymbolProvenance } from './readers.ts';
export { directionalEdge } from './outlook.ts';

export type { PredictionsServiceDeps } from './ports.ts';

const MINUTE = 60_000;

/**
 * The predictions service. The worker role runs `start()`: every `refreshMs` it forecasts each symbol ×
 * horizon from closed 1m candles and the market snapshot, stores the datapoints, scores the stored ones
 * whose horizon has passed (and lets the models learn from them), and publishes the new datapoints on the
 * bus. Readers are served from memory; response bodies are serialized once per refresh and cached as bytes.
 *
 * This file is the refresh job and its lifecycle, and puts the parts together: `forecasters.ts` (series,
 * models, funding per symbol), `warm-up.ts` (walk-forward warm-up and backfill), `score-due.ts`,
 * `read-model.ts` (what readers are served from), `outlook.ts`, `performance.ts` and `byte-cache.ts`.
 */
export function createPredictionsService(deps: PredictionsServiceDeps) {
  const { market, repository, clock } = deps;
  // The refresh timer runs on wall time; everything compared with data times uses the period as it passes on
  // the data's clock (a replay at speed 60 moves an hour of recorded time per wall-clock minute).
  const wallRefreshMs = deps.refreshMs;
  const refreshMs = onClock(clock, wallRefreshMs);
  const forecasters = createForecasters({
    market,
    derivatives: deps.derivatives,
    clock,
    refreshMs,
    history: deps.candleHistory ?? 3 * 24 * 60 + 120,
    log: deps.log,
    referenceMinHistoryMs: deps.referenceMinHistoryMs,
  });
  const { series, seriesOf, modelOf, touchOf } = forecasters;
  /** Recent rows are kept for enough 1 h buckets for a full page. */
  const keepMs = MAX_LIMIT * 60 * MINUTE + 2 * refreshMs;
  const readModel = createReadModel({ keepMs, now: () => clock.now() });
  const cache = createByteCache();
  let running: Promise<void> | undefined;
  let lastRefreshDurationMs: number | null = null;
  let term: LeaderTerm | undefined;
  /** idle: neither started nor following; starting: loading the record; warming: the refresh job runs for the
   * symbols warmed up while the others warm up; running: every symbol is forecast; following: an API replica
   * reloading what the workers publish. */
  let phase: 'idle' | 'starting' | 'warming' | 'running' | 'following' = 'idle';
  /** Symbols warmed up (forecast by the refresh); the others are still waiting for history or warming up. */
  const warm = new Set<string>();
  let warming: Promise<void> | undefined;
  let stopping = false;
  /**
   * Forecasts kept only to learn from once their horizon passes: live ones made before their model's first fit
   * (see `refresh`), and the warm-up's whose horizon had not passed when it ended.
   */
  const unpublished: Unpublished[] = [];
  /** The ledger's newest entry as this process last stored or loaded it (every answer's `Meridian-Ledger-Head`). */
  let ledgerHead: LedgerHead = EMPTY_HEAD;
  const noteHead = (head: LedgerHead) => {
    if (head.sequence >= ledgerHead.sequence) ledgerHead = head;
  };

  const backfill = (now: number, symbols: () => string[] = () => market.symbols()) =>
    warmUpAndBackfill(now, {
      symbols,
      forecasters,
      refreshMs,
      readModel,
      repository,
      stored: (head) => {
        noteHead(head);
        cache.clear();
      },
      unlearned: (symbol, forecast) => unpublished.push({ symbol, forecast }),
      note: deps.note,
    });

  /**
   * Warms symbols up as their market history arrives (each one's walk-forward replay and forecast backfill),
   * the refresh forecasting each from then on; `running` once every symbol is warm.
   */
  async function warmUpInBackground(): Promise<void> {
    const started = Date.now();
    while (!stopping) {
      const due = market.symbols().filter((s) => !warm.has(s) && (market.windowReady?.(s) ?? true));
      for (const symbol of due) {
        if (stopping) return;
        await backfill(clock.now(), () => [symbol]);
        warm.add(symbol);
        cache.clear();
      }
      if (warm.size >= market.symbols().length) break;
      await new Promise((resolve) => setTimeout(resolve, 250).unref());
    }
    if (stopping) return;
    phase = 'running';
    deps.note?.('predictions: every symbol warmed up', {
      symbols: warm.size,
      seconds: (Date.now() - started) / 1000,
    });
  }

  async function refresh(): Promise<PredictionRow[]> {
    const now = clock.now();
    const symbols = phase === 'warming' ? market.symbols().filter((s) => warm.has(s)) : market.symbols();
    for (const sym of symbols) seriesOf(sym);
    const basket = forecasters.basket();
    const rows: PredictionRow[] = [];
    for (const sym of symbols) {
      const live = liveInputsOf(sym, market, deps.derivatives);
      const s = series.get(sym)!;
      await forecasters.updateDerivatives(sym, s, now);
      const ctx = { series: s, basket, ...forecasters.derivativesOf(sym) };
      const fs = modelOf(sym).forecast(ctx, now, live);
      // The fitted references learn every refresh; their quantiles go with the datapoints to be scored.
      const i = s.indexAt(now);
      const references = i >= 0 ? forecasters.referencesOf(sym).at(i) : undefined;
      if (!fs) continue;
      const facts = marketFacts(ctx, now, live);
      for (const f of fs) {
        // Before its model's first fit a forecast is the flat placeholder: absent from every answer and the
        // record, kept only to learn from (the symbol's answers say it is warming up meanwhile).
        if (!f.warm) {
          unpublished.push({ symbol: sym, forecast: f });
          continue;
        }
        const row = toRow(sym, f, s, facts);
        rows.push(row);
        readModel.unscored.push(readModel.remember(row, f, references?.get(f.horizon)));
      }
    }
    learnDue(now, { unpublished, series, modelOf, touchOf });
    const updates = scoreDue(now, {
      unscored: readModel.unscored,
      series,
      modelOf,
      touchOf,
      trackScored: readModel.trackScored,
    });
    readModel.latest = rows;
    readModel.lastRefresh = now;
    cache.clear();
    noteHead(await repository.record(rows, updates, term));
    await markGap(now);
    readModel.lastStored = now;
    if (deps.bus && rows.length)
      await deps.bus.publish(topics.predictionsRefreshed, rows.map(presentDatapoint));
    return rows;
  }

  const readers = createReaders({
    readModel,
    cache,
    repository,
    clock,
    refreshMs,
    source: deps.source,
    minIndependentOutcomes: deps.minIndependentOutcomes,
    fundingKnown: forecasters.fundingKnown,
    warmingUp: (symbol) => warmingUp(symbol),
    touchOf: forecasters.touchOf,
  });

  /**
   * A refresh that comes more than 1.5 periods after the last stored one follows an outage (worker down,
   * storage unreachable): the missed refresh points are recorded as a gap, shown in the performance report,
   * rather than left as a silent hole. They are not backfilled: a forecast made now for a past instant would
   * have seen its future.
   */
  async function markGap(now: number): Promise<void> {
    const { lastStored } = readModel;
    if (!lastStored || now - lastStored <= 1.5 * refreshMs) return;
    const gap: PredictionGap = {
      from_ms: lastStored,
      to_ms: now,
      missed_points: Math.max(1, Math.round((now - lastStored) / refreshMs) - 1),
      recorded_at: now,
    };
    await repository.recordGap(gap);
    readModel.gaps = [...readModel.gaps.filter((g) => g.from_ms !== gap.from_ms), gap];
    cache.clear();
  }

  const loader = createRecordLoader({
    repository,
    readModel,
    clock,
    refreshMs,
    keepMs,
    symbolCount: () => market.symbols().length,
    severalPublishers: deps.severalPublishers,
  });

  /** Loads the record from storage (a process start, or an API replica after a refresh event). */
  async function load(): Promise<void> {
    await loader.load();
    noteHead(await repository.ledgerHead());
    cache.clear();
  }

  /**
   * A page of the forecast ledger, oldest first, with each datapoint's outcome once scored. `upToSequence`
   * defaults to the head now: a client paging with the cursor reads one fixed stretch of the chain.
   */
  async function ledger(
    q: Omit<LedgerQuery, 'upToSequence'> & { upToSequence?: number },
  ): Promise<{ entries: PublicLedgerEntry[]; head: LedgerHead; upToSequence: number }> {
    const head = await repository.ledgerHead();
    noteHead(head);
    const upToSequence = q.upToSequence ?? head.sequence;
    const found = await repository.ledger({ ...q, upToSequence });
    return { entries: found.map((f) => presentLedgerEntry(f.entry, f.row)), head, upToSequence };
  }

  /**
   * Whether a symbol (at `horizon`, else at any horizon) has no forecasts here yet because its model is still
   * warming up: waiting for its history, replaying it, or not fitted yet (its answers say so). Known only where
   * the refresh runs.
   */
  function warmingUp(symbol: string, horizon?: Horizon): boolean {
    if (phase !== 'warming' && phase !== 'running') return false;
    if (phase === 'warming' && !warm.has(symbol)) return true;
    const model = modelOf(symbol);
    return horizon ? !model.fitted(horizon) : HORIZONS.some((h) => !model.fitted(h));
  }

  /** Symbol × horizon pairs forecast here whose model has not made its first fit (no datapoints yet). */
  function unfitted(): number {
    if (phase !== 'warming' && phase !== 'running') return 0;
    let n = 0;
    for (const symbol of warm) for (const h of HORIZONS) if (!modelOf(symbol).fitted(h)) n++;
    return n;
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

  // tick logs its own failures.
  const refreshing = periodicJob({ name: 'predictions-refresh', everyMs: wallRefreshMs, run: tick });

  return {
    /** A symbol's learned touch excursions at a horizon, for alert rules on touch (undefined: none here). */
    touchExcursions: (symbol: string, horizon: Horizon) => forecasters.touchOf(symbol).peek(horizon),
    /** One refresh now (tests and benchmarks); errors propagate. */
    refresh,
    tick,
    load,
    warmUp: () => {
      for (const sym of market.symbols()) seriesOf(sym);
      for (const sym of market.symbols()) warmUp(forecasters, refreshMs, sym);
    },
    /** Warm-up with the backfill of what the stored record lacks (what `start` does); resolves to the count. */
    warmUpAndBackfill: () => backfill(clock.now()),
    /**
     * Worker role: load the record, then refresh every `refreshMs` while symbols warm up in the background as
     * their history arrives (`warmedUp` resolves when all are); writes are fenced by the leader's term.
     */
    async start(leaderTerm?: LeaderTerm): Promise<void> {
      term = leaderTerm;
      stopping = false;
      phase = 'starting';
      warm.clear();
      // Loading the record reads storage: it runs after start returns, so the port opens meanwhile (/readyz
      // says `starting` until it is done).
      warming = (async () => {
        const retryDelays = exponentialBackoff({ initialMs: 1_000, maxMs: 30_000 });
        for (let attempt = 1; ; attempt++) {
          try {
            await load();
            break;
          } catch (error) {
            deps.log?.('predictions record not loaded; retrying', {
              error: (error as Error).message,
              attempt,
            });
            if (stopping) return;
            await new Promise((resolve) => setTimeout(resolve, retryDelays.next()).unref());
          }
        }
        if (stopping) return;
        phase = 'warming';
        refreshing.start();
        await warmUpInBackground();
      })().catch((error: Error) => deps.log?.('predictions start-up failed', { error: error.message }));
    },
    /** Resolves once every symbol is warmed up and the first refresh after that has run (tests, benchmarks). */
    async warmedUp(): Promise<void> {
      await warming;
      await tick();
    },
    async stop(): Promise<void> {
      stopping = true;
      await warming;
      await refreshing.stop();
      await running;
      if (phase !== 'following') phase = 'idle';
    },
    predictions: readers.predictions,
    predictionsBetween: readers.predictionsBetween,
    provenance: readers.provenance,
    ledger,
    /** The ledger's newest entry known here (stored by this process, or read at the last load). */
    ledgerHead: (): LedgerHead => ledgerHead,
    /** Where the service is (readiness): start-up work not done yet shows as `starting`. */
    status: () => ({
      phase,
      warmSymbols: warm.size,
      symbols: market.symbols().length,
      lastRefresh: readModel.lastRefresh || null,
      lastRefreshDurationMs,
      scoredRecords: readModel.scoredRecords(),
      unfitted: unfitted(),
    }),
    /**
     * Whether a symbol (at `horizon`, else at any horizon) has no forecasts here yet because its model is still
     * warming up: waiting for its history, replaying it, or not fitted yet (its answers say so).
     */
    warming: warmingUp,
    /** An API replica: from now on the record is what the workers publish (`load` on each refresh). */
    following: () => {
      if (phase === 'idle') phase = 'following';
    },
    outlook: readers.outlook,
    symbolOutlook: readers.symbolOutlook,
    probabilities: readers.probabilities,
    performance: readers.performance,
    symbols: () => market.symbols(),
    latest: () => readModel.latest.map(presentDatapoint),
  };
}

export type PredictionsService = ReturnType<typeof createPredictionsService>;

export { GRID };
