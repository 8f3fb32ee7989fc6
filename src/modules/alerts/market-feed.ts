import type { Clock } from '../../shared/clock.ts';
import type { AlertsLogger, CandleEvent, MarketHistory, SnapshotEvent } from './ports.ts';
import type { SeriesUpdate } from './flow-windows.ts';
import { MarketWindows } from './market-window.ts';
import { round } from './occasion.ts';
import type { RuleIndex } from './rule-index.ts';
import { type RuleWindow, WINDOW_MS } from './rule.ts';

const SNAPSHOT_WINDOWS: readonly RuleWindow[] = ['5m', '15m', '1h', '24h'];
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Turns market events into series values: each snapshot's mid sets the price series, and the change and
 * volume series that have rules; closed candles (and a backfill from storage) feed their windows.
 */
export class MarketFeed {
  private readonly windows = new MarketWindows();
  private readonly warmed = new Set<string>();
  /** Per symbol, the keys of its series (built once: a tick would otherwise build nine strings a symbol). */
  private readonly keys = new Map<string, { price: string; change: string[]; volume: string[] }>();

  private keysOf(symbol: string) {
    let k = this.keys.get(symbol);
    if (!k) {
      k = {
        price: `p:${symbol}`,
        change: SNAPSHOT_WINDOWS.map((w) => `c:${w}:${symbol}`),
        volume: SNAPSHOT_WINDOWS.map((w) => `v:${w}:${symbol}`),
      };
      this.keys.set(symbol, k);
    }
    return k;
  }

  constructor(
    private readonly deps: {
      index: RuleIndex;
      update: SeriesUpdate;
      clock: Clock;
      log: AlertsLogger;
      history?: MarketHistory;
    },
  ) {}

  onSnapshot(p: SnapshotEvent): void {
    const { index, update } = this.deps;
    const at = p.at;
    for (const symbol in p.books) {
      const book = p.books[symbol]!;
      const bar = p.open[symbol]?.['1m'];
      if (bar && typeof bar[0] === 'number')
        this.windows.setOpen(symbol, {
          openTime: bar[0],
          close: Number(bar[4]),
          quoteVolume: Number(bar[6]),
        });
      const mid = book.mid;
      if (mid === null || !Number.isFinite(mid)) continue;
      const key = `${symbol}@${at}`;
      const occasion = {
        key,
        at,
        value: mid,
        detail: () => ({ market: { symbol, price: mid, at: iso(at) } }),
      };
      index.lastPrice.set(symbol, occasion);
      const keys = this.keysOf(symbol);
      const price = index.series.get(keys.price);
      if (price) update(price, mid, occasion);
      for (let i = 0; i < SNAPSHOT_WINDOWS.length; i++) {
        const w = SNAPSHOT_WINDOWS[i]!;
        const change = index.series.get(keys.change[i]!);
        if (change?.index.size) {
          const pct = this.windows.changePct(symbol, WINDOW_MS[w], mid, at);
          if (pct !== undefined)
            update(change, pct, {
              key,
              at,
              value: pct,
              detail: () => ({
                market: { symbol, price: mid, window: w, changePct: round(pct, 4), at: iso(at) },
              }),
            });
        }
        const volume = index.series.get(keys.volume[i]!);
        if (volume?.index.size) {
          const qv = this.windows.quoteVolume(symbol, WINDOW_MS[w], at);
          if (qv !== undefined)
            update(volume, qv, {
              key,
              at,
              value: qv,
              detail: () => ({
                market: { symbol, window: w, quoteVolume: round(qv, 2), price: mid, at: iso(at) },
              }),
            });
        }
      }
    }
  }

  onCandle(p: CandleEvent): void {
    if (p.interval !== '1m') return;
    const { openTime, close, quoteVolume } = p.candle;
    this.windows.addClosed(p.symbol, { openTime, close, quoteVolume: quoteVolume || 0 });
  }

  /** Loads a day of stored bars for a symbol's windows, once (again after a failure). */
  warm(symbol: string): void {
    const { history, clock, log } = this.deps;
    if (this.warmed.has(symbol) || !history) return;
    this.warmed.add(symbol);
    const now = clock.now();
    history
      .minuteBars(symbol, now - WINDOW_MS['24h'] - 5 * 60_000, now)
      .then((bars) => {
        for (const bar of bars) this.windows.addClosed(symbol, bar);
      })
      .catch((error: unknown) => {
        this.warmed.delete(symbol);
        log.warn(
          { symbol, err: String(error) },
          'alerts: market history backfill failed; retried on next use',
        );
      });
  }
}
