import { describe, expect, it } from 'vitest';
import { createForecasters } from './forecasters.ts';
import type { PredictionsMarketPort } from './ports.ts';
import type { Bar } from './types.ts';

const MIN = 60_000;
const bar = (i: number): Bar => ({
  openTime: i * MIN,
  open: 100 + i,
  high: 101 + i,
  low: 99 + i,
  close: 100.5 + i,
  volume: 1,
});

/** A market of one symbol whose minutes are `minutes`, recording how many bars each read handed out. */
function market(minutes: Bar[]) {
  const reads: number[] = [];
  const port: PredictionsMarketPort = {
    symbols: () => ['BTCUSDT'],
    snapshot: () => undefined,
    recentCandles(_symbol, _interval, count, after) {
      const out = minutes.slice(-count).filter((b) => after === undefined || b.openTime > after);
      reads.push(out.length);
      return out;
    },
  };
  return { port, reads };
}

describe('the series the model reads, topped up from the market', () => {
  it('asks only for the minutes after the newest one it holds, and ends with the same series', () => {
    const minutes = Array.from({ length: 4440 }, (_, i) => bar(i));
    const { port, reads } = market(minutes);
    const clock = { now: () => 4440 * MIN };
    const forecasters = createForecasters({ market: port, clock, refreshMs: MIN, history: 4440 });
    const s = forecasters.seriesOf('BTCUSDT');
    expect(reads).toEqual([4440]);
    for (let i = 4440; i < 4443; i++) minutes.push(bar(i));
    forecasters.seriesOf('BTCUSDT');
    // Nothing new: nothing copied.
    forecasters.seriesOf('BTCUSDT');
    expect(reads).toEqual([4440, 3, 0]);
    expect(s.length).toBe(4443);
    expect(s.closeTime.at(-1)).toBe(4443 * MIN);
    expect(s.close.at(-1)).toBe(100.5 + 4442);
    // After a gap longer than the window, the newest `history` minutes, as a first read would give.
    for (let i = 4443; i < 10_000; i++) minutes.push(bar(i));
    forecasters.seriesOf('BTCUSDT');
    expect(reads.at(-1)).toBe(4440);
    expect(s.closeTime.at(-1)).toBe(10_000 * MIN);
  });
});
