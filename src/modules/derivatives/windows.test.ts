import { describe, expect, it } from 'vitest';
import { SymbolWindows } from './windows.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1);

describe('SymbolWindows', () => {
  it('holds at most 25 h of open-interest minutes and 24 h of liquidation minutes, however long it runs', () => {
    const w = new SymbolWindows();
    let now = T0;
    for (let m = 0; m < 3 * 1440; m++) {
      now = T0 + m * MINUTE;
      w.noteOpenInterest(now, 1e9 + m);
      w.noteLiquidation({
        venue: 'binance',
        symbol: 'BTCUSDT',
        time: now,
        side: m % 2 ? 'long' : 'short',
        price: 1,
        size: 1000,
        usd: 1000,
      });
      w.prune(now);
    }
    const size = w.size();
    expect(size.openInterest).toBeLessThanOrEqual(25 * 60 + 1);
    expect(size.liquidations).toBeLessThanOrEqual(24 * 60);
    // What is kept still answers: the 24 h change against the minute a day before, and the 24 h sums.
    expect(w.change24hPct(now, 1e9 + 3 * 1440 - 1)).toBeCloseTo(((1e9 + 4319) / (1e9 + 2879) - 1) * 100, 9);
    expect(w.liquidationSums(now).h24.longUsd + w.liquidationSums(now).h24.shortUsd).toBe(1440 * 1000);
  });
});
