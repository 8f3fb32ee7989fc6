import type { Forecasters } from './forecasters.ts';
import type { HorizonForecast } from './models/engine.ts';
import { marketFacts } from './facts.ts';
import { toRow } from './forecast-row.ts';
import type { ReadModel } from './read-model.ts';
import { learnTouch } from './score-due.ts';
import { logQuantilesOfGrid } from './level-probability.ts';
import type { LedgerHead, PredictionRepository, PredictionRow } from './repository.ts';
import { HORIZON_MS } from '../identifiers/index.ts';

const MINUTE = 60_000;
/** How far back a fresh install (or the span after an outage) is backfilled: the default 96 × 15 min page. */
const BACKFILL_MS = 24 * 60 * MINUTE;
/** Spacing of backfilled datapoints (every granularity down to 5 min gets a full page). */
const BACKFILL_STEP_MS = 5 * MINUTE;
/** Longest stretch the warm-up keeps the event loop before letting other work run (a model step can add a few ms). */
const WARM_UP_SLICE_MS = 10;

/**
 * Walk-forward replay of the candles in memory so a fresh process starts with learned weights. Forecasts
 * made at or after `backfillFrom` (every `BACKFILL_STEP_MS`) are returned as backfilled rows: each one is
 * what the model said at its instant from the candles closed by then — the same walk-forward pass, so no
 * forecast sees a later candle. Settled funding rates and open interest come from the stored history, read
 * only up to each instant; live-only inputs (order book, trade flow, the predicted funding rate and basis) did
 * not exist for past instants, so they contribute nothing to backfilled forecasts. Yields after each model
 * step. The forecasts whose horizon has not passed by the last candle go to `unlearned` (the live refresh
 * learns from them once it has).
 */
function* warmUpSteps(
  forecasters: Forecasters,
  refreshMs: number,
  symbol: string,
  backfillFrom: number,
  unlearned?: (f: HorizonForecast) => void,
): Generator<void, PredictionRow[]> {
  const backfilled: PredictionRow[] = [];
  let nextBackfill = Math.ceil(backfillFrom / BACKFILL_STEP_MS) * BACKFILL_STEP_MS;
  const s = forecasters.seriesOf(symbol);
  const model = forecasters.modelOf(symbol);
  const touch = forecasters.touchOf(symbol);
  const references = forecasters.referencesOf(symbol);
  const basket = forecasters.basket();
  const step = Math.max(refreshMs, MINUTE);
  const pending: HorizonForecast[] = [];
  let next = 0;
  for (let i = 0; i < s.length; i++) {
    const t = s.closeTime[i]!;
    while (pending.length && pending[0]!.t + HORIZON_MS[pending[0]!.horizon] <= t) {
      const f = pending.shift()!;
      const j = s.indexAt(f.t + HORIZON_MS[f.horizon]);
      if (j < 0) continue;
      model.learn(f, s.close[j]!);
      learnTouch(touch, s, f, logQuantilesOfGrid(f.views.ensemble!.quantiles));
    }
    if (t < next) continue;
    next = t + step;
    // The references learn and fit over the replay too (their forecasts score live datapoints only).
    references.at(i);
    const ctx = { series: s, basket, ...forecasters.derivativesOf(symbol) };
    const fs = model.forecast(ctx, t);
    yield;
    if (fs) {
      if (t >= nextBackfill) {
        nextBackfill = Math.floor(t / BACKFILL_STEP_MS) * BACKFILL_STEP_MS + BACKFILL_STEP_MS;
        const facts = marketFacts(ctx, t);
        // Before the model's first fit a forecast is the flat placeholder (baseline, confidence 0.5): left out.
        for (const f of fs) if (f.warm) backfilled.push({ ...toRow(symbol, f, s, facts), backfilled: true });
      }
      for (const f of fs) insertByDue(pending, f);
    }
  }
  if (unlearned) for (const f of pending) unlearned(f);
  return backfilled;
}

const dueOf = (f: HorizonForecast) => f.t + HORIZON_MS[f.horizon];

/**
 * Inserts `f` into `pending` (ordered by due time) after every forecast due no later: the order a stable sort
 * gives, without sorting the few hundred pending forecasts again at every step.
 */
function insertByDue(pending: HorizonForecast[], f: HorizonForecast): void {
  const due = dueOf(f);
  let lo = 0;
  let hi = pending.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dueOf(pending[mid]!) <= due) lo = mid + 1;
    else hi = mid;
  }
  pending.splice(lo, 0, f);
}

/** The warm-up of one symbol in one go (tests and benchmarks, where nothing else waits on the loop). */
export function warmUp(
  forecasters: Forecasters,
  refreshMs: number,
  symbol: string,
  backfillFrom = Number.POSITIVE_INFINITY,
): PredictionRow[] {
  const steps = warmUpSteps(forecasters, refreshMs, symbol, backfillFrom);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same warm-up in slices of at most `WARM_UP_SLICE_MS`, giving the event loop back in between: a server
 * warming up still answers requests (and /readyz) promptly instead of stalling for the whole replay.
 */
async function warmUpInSlices(
  forecasters: Forecasters,
  refreshMs: number,
  symbol: string,
  backfillFrom: number,
  unlearned?: (f: HorizonForecast) => void,
): Promise<PredictionRow[]> {
  const steps = warmUpSteps(forecasters, refreshMs, symbol, backfillFrom, unlearned);
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
 * and left out of the live track record. Resolves to the number of rows backfilled.
 */
export async function warmUpAndBackfill(
  now: number,
  deps: {
    symbols: () => string[];
    forecasters: Forecasters;
    refreshMs: number;
    readModel: ReadModel;
    repository: Pick<PredictionRepository, 'insert'>;
    /** Called once backfilled rows are stored, with the ledger's head after them (the bodies are out of date). */
    stored: (head: LedgerHead) => void;
    /** The warm-up's forecasts whose horizon has not passed yet, for the model to learn from later. */
    unlearned?: (symbol: string, f: HorizonForecast) => void;
    note?: (msg: string, extra?: Record<string, unknown>) => void;
  },
): Promise<number> {
  const { forecasters, readModel } = deps;
  for (const sym of deps.symbols()) forecasters.seriesOf(sym);
  let from = now;
  const rows: PredictionRow[] = [];
  for (const sym of deps.symbols()) {
    // Per symbol: one that joined (or warmed up) later has its own newest stored datapoint.
    const symbolFrom = Math.max(now - BACKFILL_MS, readModel.newestGenerated(sym) + deps.refreshMs);
    from = Math.min(from, symbolFrom);
    await forecasters.updateDerivatives(sym, forecasters.seriesOf(sym), now);
    const unlearned = deps.unlearned && ((f: HorizonForecast) => deps.unlearned!(sym, f));
    rows.push(...(await warmUpInSlices(forecasters, deps.refreshMs, sym, symbolFrom, unlearned)));
  }
  rows.sort((a, b) => a.generated_at - b.generated_at);
  for (const r of rows) readModel.unscored.push(readModel.remember(r));
  if (rows.length) {
    deps.stored(await deps.repository.insert(rows));
    deps.note?.('predictions backfilled', { datapoints: rows.length, from: new Date(from).toISOString() });
  }
  return rows.length;
}
