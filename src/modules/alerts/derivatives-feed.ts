import type { Clock } from '../../shared/clock.ts';
import type { SeriesUpdate } from './flow-windows.ts';
import { round } from './occasion.ts';
import type { AlertsLogger, DerivativesEvent, DerivativesHistory } from './ports.ts';
import {
  DERIVATIVES_WINDOW_MS,
  DERIVATIVES_WINDOWS,
  LIQUIDATION_SIDES,
  type LiquidationSide,
} from './rule.ts';
import { fundingKey, liquidationsKey, openInterestKey, type RuleIndex } from './rule-index.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const minuteOf = (t: number) => t - (t % MINUTE);
const iso = (ms: number) => new Date(ms).toISOString();

interface SymbolMemory {
  /** Merged open interest (USD) per minute, the last 25 hours. */
  openInterest: Map<number, number>;
  /** Liquidations per minute, the last 24 hours. */
  liquidations: Map<number, { longUsd: number; shortUsd: number }>;
}

/**
 * Turns each derivatives refresh into series values, on that refresh: the merged funding rate (annualized
 * percent), open interest's change over each window of a rule, and each window's liquidations. A metric the
 * refresh has as absent (null) sets nothing — it is never read as 0. Only symbols with a derivatives rule are
 * remembered; their memory starts from storage (`warm`).
 */
export class DerivativesFeed {
  private readonly memory = new Map<string, SymbolMemory>();

  constructor(
    private readonly deps: {
      index: RuleIndex;
      update: SeriesUpdate;
      clock: Clock;
      log: AlertsLogger;
      history?: DerivativesHistory;
    },
  ) {}

  onUpdate(p: DerivativesEvent): void {
    const at = p.at;
    for (const l of p.liquidations) {
      const m = this.memory.get(l.symbol);
      const time = Date.parse(l.time);
      if (!m || !Number.isFinite(time) || !Number.isFinite(l.usd)) continue;
      const bucket = m.liquidations.get(minuteOf(time)) ?? { longUsd: 0, shortUsd: 0 };
      if (l.side === 'long') bucket.longUsd += l.usd;
      else bucket.shortUsd += l.usd;
      m.liquidations.set(minuteOf(time), bucket);
    }
    for (const item of p.items) {
      const m = this.memory.get(item.symbol);
      if (!m) continue;
      const symbol = item.symbol;
      const key = `d:${symbol}@${at}`;
      const about = { symbol, source: p.source, simulated: p.simulated, at: iso(at) };
      const occasion = (value: number, detail: Record<string, unknown>) => ({
        key,
        at,
        value,
        detail: () => ({ derivatives: { ...about, ...detail } }),
      });
      const { index, update } = this.deps;

      const funding = index.series.get(fundingKey(symbol));
      if (funding?.index.size && item.funding && Number.isFinite(item.funding.annualizedPct)) {
        const pct = item.funding.annualizedPct;
        update(
          funding,
          pct,
          occasion(pct, { metric: 'funding', fundingAnnualizedPct: pct, fundingRate: item.funding.rate }),
        );
      }

      const usd = item.openInterest?.usd;
      if (typeof usd === 'number' && Number.isFinite(usd)) {
        m.openInterest.set(minuteOf(at), usd);
        for (const w of DERIVATIVES_WINDOWS) {
          const s = index.series.get(openInterestKey(w, symbol));
          const pct = s?.index.size ? changePct(m, DERIVATIVES_WINDOW_MS[w], usd, at) : undefined;
          if (s && pct !== undefined)
            update(
              s,
              pct,
              occasion(pct, {
                metric: 'open_interest',
                window: w,
                openInterestUsd: usd,
                changePct: round(pct, 4),
              }),
            );
        }
      }

      // Null: no venue of the symbol streams liquidations, so there is no sum to compare (not 0).
      if (item.liquidations !== null && item.liquidations !== undefined)
        for (const w of DERIVATIVES_WINDOWS)
          for (const side of LIQUIDATION_SIDES) {
            const s = index.series.get(liquidationsKey(side, w, symbol));
            if (!s?.index.size) continue;
            const sum = liquidatedUsd(m, DERIVATIVES_WINDOW_MS[w], side, at);
            update(
              s,
              sum,
              occasion(sum, { metric: 'liquidations', window: w, side, liquidatedUsd: round(sum, 2) }),
            );
          }
      prune(m, at);
    }
  }

  /** Starts remembering a symbol (a derivatives rule watches it), from a day of stored series. */
  warm(symbol: string): void {
    if (this.memory.has(symbol)) return;
    const m: SymbolMemory = { openInterest: new Map(), liquidations: new Map() };
    this.memory.set(symbol, m);
    const { history, clock, log } = this.deps;
    if (!history) return;
    const now = clock.now();
    Promise.all([
      history.openInterest(symbol, now - DAY - HOUR, now),
      history.liquidations(symbol, now - DAY, now),
    ])
      .then(([oi, liquidations]) => {
        // What arrived meanwhile is newer than (or the same as) what was stored: kept as it is.
        for (const p of oi)
          if (!m.openInterest.has(minuteOf(p.time))) m.openInterest.set(minuteOf(p.time), p.usd);
        for (const p of liquidations) {
          const had = m.liquidations.get(minuteOf(p.time));
          m.liquidations.set(minuteOf(p.time), {
            longUsd: Math.max(had?.longUsd ?? 0, p.longUsd),
            shortUsd: Math.max(had?.shortUsd ?? 0, p.shortUsd),
          });
        }
      })
      .catch((error: unknown) => {
        log.warn(
          { symbol, err: String(error) },
          'alerts: derivatives history backfill failed; windows fill from new refreshes',
        );
      });
  }
}

/**
 * Percent change against the newest minute at least `windowMs` old, within a quarter of the window (at most an
 * hour) of it; undefined when there is none (no value, no firing).
 */
function changePct(m: SymbolMemory, windowMs: number, usd: number, at: number): number | undefined {
  const target = minuteOf(at - windowMs);
  const reach = Math.min(windowMs / 4, HOUR);
  for (let t = target; t > target - reach; t -= MINUTE) {
    const then = m.openInterest.get(t);
    if (then !== undefined && then > 0) return (usd / then - 1) * 100;
  }
  return undefined;
}

/** USD liquidated on the side over the minutes of (at − windowMs, at]. */
function liquidatedUsd(m: SymbolMemory, windowMs: number, side: LiquidationSide, at: number): number {
  let sum = 0;
  for (const [minute, b] of m.liquidations) {
    if (minute > at || at - minute >= windowMs) continue;
    if (side !== 'short') sum += b.longUsd;
    if (side !== 'long') sum += b.shortUsd;
  }
  return sum;
}

function prune(m: SymbolMemory, at: number): void {
  for (const t of m.openInterest.keys()) if (at - t > DAY + HOUR) m.openInterest.delete(t);
  for (const t of m.liquidations.keys()) if (at - t >= DAY) m.liquidations.delete(t);
}
