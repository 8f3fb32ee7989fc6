import type { Clock } from '../../shared/clock.ts';
import { BarSeries } from './features/series.ts';
import { createFundingFeed, createOpenInterestFeed } from './funding-feed.ts';
import { TouchCalibrator } from './calibration/touch.ts';
import { SymbolForecaster } from './models/engine.ts';
import type { PredictionsDerivativesPort, PredictionsMarketPort } from './ports.ts';
import { SymbolReferences } from './references/live.ts';
import { HORIZONS, HORIZON_MS, type Horizon } from '../identifiers/index.ts';

const MINUTE = 60_000;
/**
 * Minutes kept per symbol, whatever the uptime: 8 days, so the weekly volatility pattern (which needs a week of
 * bars) stays available. At twelve numbers a bar that is at most ≈ 1.2 MB per symbol (with the trimming slack).
 */
export const KEEP_BARS = 8 * 1440;
/** Symbols in the market-wide basket. */
const BASKET_SIZE = 7;

/**
 * What the forecasts are made from, per symbol: the 1m bar series (topped up from the market on each use),
 * the model, the fitted volatility references the record scores it against, and the settled funding rates.
 */
export function createForecasters(deps: {
  market: PredictionsMarketPort;
  /** Funding, basis and open interest from the derivatives module (else the market's funding, if any). */
  derivatives?: PredictionsDerivativesPort;
  clock: Clock;
  /** The refresh period on the data's clock. */
  refreshMs: number;
  /** 1m candles requested per symbol and use. */
  history: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
  /** History the fitted references need before their first fit (default a day plus the symbol's phase). */
  referenceMinHistoryMs?: number;
}) {
  const { market, clock, refreshMs, history } = deps;
  const series = new Map<string, BarSeries>();
  const models = new Map<string, SymbolForecaster>();
  const touch = new Map<string, TouchCalibrator<Horizon>>();
  const references = new Map<string, SymbolReferences>();
  const derivatives = deps.derivatives;
  const funding = createFundingFeed({
    history: derivatives ? derivatives.fundingHistory.bind(derivatives) : market.fundingHistory?.bind(market),
    log: deps.log,
  });
  const openInterest = createOpenInterestFeed({
    history: derivatives?.openInterestHistory.bind(derivatives),
    log: deps.log,
  });

  function seriesOf(symbol: string): BarSeries {
    let s = series.get(symbol);
    if (!s) {
      s = new BarSeries(symbol, MINUTE);
      series.set(symbol, s);
    }
    // Only the minutes since the newest one held: a refresh copies what is new, not the 3-day window again.
    const after = s.length ? s.closeTime[s.length - 1]! - MINUTE : undefined;
    for (const c of market.recentCandles(symbol, '1m', history, after)) s.append(c);
    s.trim(KEEP_BARS);
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

  /** The symbol's walk-forward excursions for touch probabilities (≤ 96 KB: three horizons, two sides). */
  function touchOf(symbol: string): TouchCalibrator<Horizon> {
    let t = touch.get(symbol);
    if (!t) {
      t = new TouchCalibrator<Horizon>((h) => HORIZON_MS[h]);
      touch.set(symbol, t);
    }
    return t;
  }

  /** GARCH(1,1) and HAR-RV on the symbol's series, calibrated by the model's own layer factories. */
  function referencesOf(symbol: string): SymbolReferences {
    let r = references.get(symbol);
    if (!r) {
      const model = modelOf(symbol);
      const tuningOf = (h: Horizon) => model.models[h].tuning;
      r = new SymbolReferences(seriesOf(symbol), HORIZONS, tuningOf, deps.referenceMinHistoryMs);
      references.set(symbol, r);
    }
    return r;
  }

  /**
   * The basket the market-wide features read: the series of the first `BASKET_SIZE` symbols of the universe
   * (its most liquid, in a ranked universe). A fixed size keeps each forecast's cost independent of how many
   * symbols are served; with the default seven symbols it is all of them. A series already held is used as
   * it is (the refresh and the warm-up top each one up themselves), not copied from the market again.
   */
  function basket(): BarSeries[] {
    return market
      .symbols()
      .slice(0, BASKET_SIZE)
      .map((symbol) => series.get(symbol) ?? seriesOf(symbol));
  }

  return {
    /** Every symbol's series so far. */
    series,
    basket,
    seriesOf,
    modelOf,
    touchOf,
    referencesOf,
    funding,
    openInterest,
    /**
     * Brings a symbol's funding and open interest up to `now`: rates from 8 h before the series' first bar, so
     * the first settled rate and its predecessor are known.
     */
    async updateDerivatives(symbol: string, s: BarSeries, now: number): Promise<void> {
      const start = s.length ? s.closeTime[0]! : clock.now();
      await funding.update(symbol, start - 8 * 60 * MINUTE, now);
      // Open interest's typical 4 h change is measured over the 7 days before.
      await openInterest.update(symbol, start - 7 * 24 * 60 * MINUTE, now);
    },
    /** The derivatives series of a symbol, for a feature context. */
    derivativesOf: (symbol: string) => ({
      funding: funding.series(symbol),
      openInterest: openInterest.series(symbol),
    }),
    /** Whether funding reaches the model: known where the model runs, undefined on an API replica. */
    fundingKnown(symbol: string | undefined): boolean | undefined {
      const known = (symbol === undefined ? market.symbols() : [symbol]).map((s) => funding.known(s));
      if (known.includes(true)) return true;
      return known.includes(undefined) ? undefined : false;
    },
  };
}

export type Forecasters = ReturnType<typeof createForecasters>;
