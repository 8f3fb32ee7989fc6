import {
  createPredictionsService,
  createMemoryPredictionRepository,
  type Bar,
  type PredictionsMarketPort,
} from '../src/modules/predictions/index.ts';
import { manualClock } from '../src/shared/clock.ts';

const MIN = 60_000;
export const BENCH_SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT'];

/** A market of 7 symbols with 3 days of 1m history (deterministic pseudo-random walks) and a live snapshot. */
export function benchMarket(clock: { now(): number }, start: number): PredictionsMarketPort {
  const bars = new Map<string, Bar[]>();
  let seed = 1;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (const sym of BENCH_SYMBOLS) {
    const list: Bar[] = [];
    let p = 100 + rand() * 1000;
    for (let i = 0; i < 3 * 24 * 60 + 2000; i++) {
      const open = p;
      p *= Math.exp((rand() - 0.5) * 0.003);
      list.push({
        openTime: start - 3 * 24 * 60 * MIN + i * MIN,
        open,
        high: Math.max(open, p) * 1.0003,
        low: Math.min(open, p) * 0.9997,
        close: p,
        volume: rand() * 50,
      });
    }
    bars.set(sym, list);
  }
  const upTo = (sym: string) => {
    const list = bars.get(sym)!;
    const n = Math.min(list.length, Math.floor((clock.now() - list[0]!.openTime) / MIN));
    return list.slice(0, Math.max(0, n));
  };
  return {
    symbols: () => BENCH_SYMBOLS,
    snapshot: (s) => ({
      mid: upTo(s).at(-1)?.close ?? null,
      bookImbalance: 0.1,
      tradeImbalance5m: -0.05,
      fundingRate: 0.0001,
      basisBps: 3,
    }),
    recentCandles: (s, _i, count) => upTo(s).slice(-count),
  };
}

/** A warmed-up service that has refreshed `refreshes` times, one a minute. */
export async function benchService(refreshes: number) {
  const start = Date.UTC(2025, 0, 6);
  const clock = manualClock(start);
  const repository = createMemoryPredictionRepository();
  const service = createPredictionsService({
    market: benchMarket(clock, start),
    repository,
    clock,
    refreshMs: MIN,
  });
  service.warmUp();
  for (let i = 0; i < refreshes; i++) {
    await service.refresh();
    clock.advance(MIN);
  }
  return { service, clock, repository };
}
