import { beforeAll, describe, expect, it } from 'vitest';
import {
  SYMBOL,
  compareWithRecorded,
  newEngine,
  readRecordedBars,
  recordedBarsPresent,
} from '../../../test/harness/recorded-candles.ts';
import { type Candle, resample } from './candles.ts';

/**
 * Resampling checked against real data: 5m bars built from the recorded 1m bars by `resample()` and by the
 * engine's start-up path equal the recorded 5m bars (test/harness/recorded-candles.ts). The live path (trades
 * replayed through the engine) has a file of its own: resample-live-path.slow.test.ts.
 */
const present = recordedBarsPresent('the real-data resample check');

describe.skipIf(!present)('real data: BTC/USDT 1m rolled up to 5m equals the recorded 5m bars', () => {
  let oneMinute: Candle[];
  let fiveMinute: Candle[];

  beforeAll(async () => {
    ({ oneMinute, fiveMinute } = await readRecordedBars());
  });

  it('resample(): matches at least 99.5 % of the overlapping bars; every mismatch is explained by missing 1m data', () => {
    compareWithRecorded('resample()', oneMinute, fiveMinute, resample(oneMinute, 300_000));
  });

  it('engine.loadHistory (start-up path: Rollup over stored 1m history) gives the same 5m bars', () => {
    const engine = newEngine();
    engine.loadHistory(SYMBOL, oneMinute);
    const series = engine.memorySeries(SYMBOL, '5m')!;
    expect(series.length).toBeGreaterThan(10_000);
    const built = series.range(0, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    compareWithRecorded('engine.loadHistory', oneMinute, fiveMinute, built);
  });
});
