import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktestCommand } from '../../src/main/backtest-command.ts';
import { readCandleFile } from '../../src/modules/market/index.ts';
import type { BacktestReport, FundingAblation } from '../../src/modules/predictions/index.ts';
import { sharedDataPresent } from '../harness/shared-data.ts';

const PERP = '../shared/data/market/binance-usdm-2025/BTC_USDT_USDT-5m-futures.json';
const FUNDING = '../shared/data/market/binance-usdm-2025/BTC_USDT_USDT-8h-funding_rate.json';
const have = sharedDataPresent('funding ablation backtest', PERP, FUNDING);

describe.skipIf(!have)('meridian backtest --funding --open-interest', () => {
  it('reads an open-interest file and reports the funding member with and without its inputs', async () => {
    const bars = (await readCandleFile(PERP)).slice(0, 12 * 24 * 8);
    const dir = await mkdtemp(join(tmpdir(), 'meridian-ablation-'));
    try {
      // The recording has no open interest: an hourly series shaped like a venue's, built from the bars.
      const oi = bars
        .filter((b) => b.openTime % 3_600_000 === 0)
        .map((b, k) => [b.openTime, 5e9 * (1 + 0.02 * Math.sin(k / 5)), 40_000 + k]);
      await writeFile(join(dir, 'BTC_USDT_USDT-1h-open_interest.json'), JSON.stringify(oi));
      await writeFile(
        join(dir, 'bars.json'),
        JSON.stringify(bars.map((b) => [b.openTime, b.open, b.high, b.low, b.close, b.volume])),
      );
      const code = await runBacktestCommand([
        ...['--candles', join(dir, 'bars.json'), '--symbol', 'BTCUSDT', '--horizons', '15m'],
        ...['--funding', FUNDING, '--open-interest', join(dir, 'BTC_USDT_USDT-1h-open_interest.json')],
        ...['--out', join(dir, 'r.json')],
      ]);
      expect(code).toBe(0);
      const report = JSON.parse(await readFile(join(dir, 'r.json'), 'utf8')) as BacktestReport & {
        fundingAblation: FundingAblation;
      };
      expect(report.funding).toBe(true);
      expect(report.fundingAblation.inputs).toEqual({ funding: true, openInterest: true });
      const c = report.fundingAblation.horizons['15m']!;
      expect(c.count).toBe(report.horizons['15m']!.count);
      expect(c.shareWithInputs).toBeGreaterThan(0.9);
      expect(c.crpsWith).toBeCloseTo(report.horizons['15m']!.forecasters.ensemble.crps, 12);
      expect(c.crpsWithout).toBeGreaterThan(0);
      expect(c.skillPct).toBeCloseTo(100 * (1 - c.crpsWith / c.crpsWithout), 10);
      expect(c.dieboldMariano.pValue).toBeGreaterThanOrEqual(0);
      expect(Number.isFinite(c.memberSlope) && Number.isFinite(c.memberT)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
