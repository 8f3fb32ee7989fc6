import { beforeAll, describe, expect, it } from 'vitest';
import {
  GRACE_MS,
  SYMBOL,
  VENUE,
  compareWithRecorded,
  newEngine,
  readRecordedBars,
  recordedBarsPresent,
} from '../../../test/harness/recorded-candles.ts';
import type { Candle } from './candles.ts';
import { MERGED } from './engine.ts';

/**
 * The engine's live path replayed over the whole recorded 1m file (about 60,000 minutes, four trades each): a
 * file of its own, so it runs in a fresh process rather than after the other real-data cases (whose heap and
 * JIT state made it several times slower).
 */
const present = recordedBarsPresent('the real-data live-path check');

describe.skipIf(!present)(
  'real data: the engine live path rolls BTC/USDT 1m up to the recorded 5m bars',
  () => {
    let oneMinute: Candle[];
    let fiveMinute: Candle[];

    beforeAll(async () => {
      ({ oneMinute, fiveMinute } = await readRecordedBars());
    });

    it('engine live path (trades → 1m bars → merged Rollup → candle-closed events) gives the same 5m bars', () => {
      // Each recorded minute replayed as its four prices (the whole volume on the open trade), the engine
      // ticked after the minute's grace period as the service does: closed merged 5m bars come out of the
      // merged Rollup through onCandleClosed, the path that feeds storage, the API and the push channel.
      const engine = newEngine();
      const closed: Candle[] = [];
      const closedMinutes: Candle[] = [];
      // Replay minute during which each 5m bar was announced.
      const announcedAt = new Map<number, number>();
      let replaying = 0;
      engine.onCandleClosed((e) => {
        if (e.venue !== MERGED) return;
        if (e.interval === '5m') {
          closed.push(e.candle);
          announcedAt.set(e.candle.openTime, replaying);
        }
        if (e.interval === '1m') closedMinutes.push(e.candle);
      });
      for (const bar of oneMinute) {
        const t = bar.openTime;
        replaying = t;
        const prices = [bar.open, bar.high, bar.low, bar.close];
        prices.forEach((price, i) => {
          engine.ingest({
            kind: 'trade',
            venue: VENUE,
            symbol: SYMBOL,
            price,
            size: i === 0 ? bar.volume : 0,
            side: 'buy',
            exchangeTime: t + i * 1_000,
            receiveTime: t + i * 1_000,
          });
        });
        engine.tick(t + 60_000 + GRACE_MS);
      }
      // The replay itself is faithful: the engine's closed 1m bars are the recorded ones.
      expect(closedMinutes.length).toBe(oneMinute.length);
      const ohlcv = (c: Candle) => [c.openTime, c.open, c.high, c.low, c.close, c.volume];
      const unfaithful = closedMinutes.findIndex((c, i) => ohlcv(c).join() !== ohlcv(oneMinute[i]!).join());
      expect(unfaithful).toBe(-1);
      expect(closed.length).toBeGreaterThan(10_000);
      // Each bucket closes once, in order.
      expect(closed.findIndex((c, i) => i > 0 && c.openTime <= closed[i - 1]!.openTime)).toBe(-1);
      // A bar whose last minute exists is announced as soon as that minute closes, not a bucket later.
      const present1m = new Set(oneMinute.map((c) => c.openTime));
      const late = closed.filter(
        (c) => present1m.has(c.openTime + 240_000) && announcedAt.get(c.openTime) !== c.openTime + 240_000,
      );
      expect(late.map((c) => new Date(c.openTime).toISOString())).toEqual([]);
      // The in-memory series (what /candles serves) holds exactly what was announced.
      expect(
        engine.memorySeries(SYMBOL, '5m')!.range(0, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
      ).toEqual(closed);
      compareWithRecorded('engine live', oneMinute, fiveMinute, closed);
    });
  },
);
