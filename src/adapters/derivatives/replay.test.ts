import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPresent } from '../../../test/harness/shared-data.ts';
import {
  createDerivativesService,
  createMemoryDerivativesRepository,
} from '../../modules/derivatives/index.ts';
import { readFundingFile } from '../../modules/market/index.ts';
import { manualClock } from '../../shared/clock.ts';
import { replayDerivativesSource } from './replay.ts';

const folder = resolve(process.cwd(), '../shared/data/market/binance-usdm-2025');
const fundingFile = resolve(folder, 'BTC_USDT_USDT-8h-funding_rate.json');
const present = sharedDataPresent('derivatives replay', fundingFile);
const quiet = { warn: () => {}, info: () => {} };

describe.runIf(present)('replay of recorded funding files', () => {
  it('stores the recorded series exactly (times with their jitter, rates as recorded) and answers it back', async () => {
    const recorded = await readFundingFile(fundingFile);
    const last = recorded.at(-1)!.time;
    const clock = manualClock(last + 3_600_000);
    const source = await replayDerivativesSource({ folder, symbols: ['BTCUSDT', 'ETHUSDT'], clock });
    expect(source.symbols).toEqual(['BTCUSDT', 'ETHUSDT']);
    const repository = createMemoryDerivativesRepository();
    const service = createDerivativesService({
      source,
      repository,
      clock,
      symbols: source.symbols,
      sourceLabel: 'replay',
      staleMs: 300_000,
      outlierBps: 100,
      refreshMs: 3_600_000,
      historyDays: 60,
      log: quiet,
    });
    await service.start();
    await service.backfilled();
    await service.stop();
    const stored = await repository.range('BTCUSDT', 'funding', 0, Number.MAX_SAFE_INTEGER, 10_000);
    expect(stored).toEqual(recorded.map((p) => ({ time: p.time, value: p.rate, value2: null })));
    // Through the history query, at an interval finer than the settlements: every point, at its own time.
    const buckets = await service.history({
      symbol: 'BTCUSDT',
      metric: 'funding',
      intervalMs: 3_600_000,
      fromMs: recorded[0]!.time - (recorded[0]!.time % 3_600_000),
      toMs: last + 1,
      limit: 1000,
    });
    expect(buckets.map((b) => [b.time, b.value])).toEqual(recorded.map((p) => [p.time, p.rate]));
    // The live view: the last settled rate, no open interest, index or liquidations in the recording.
    const [view] = service.views(['BTCUSDT']);
    expect(view!.funding!.rate).toBe(recorded.at(-1)!.rate);
    expect(view!.openInterest).toBeNull();
    expect(view!.basis).toBeNull();
    expect(view!.liquidations).toBeNull();
  });
});

describe('replay of recorded open interest', () => {
  it('reads `*-open_interest.json` ([[timeMs, usd, contracts?], …]): polled and answered as history up to the clock', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'meridian-oi-'));
    try {
      const t0 = Date.UTC(2025, 9, 1);
      const rows = Array.from({ length: 48 }, (_, k) => [t0 + k * 3_600_000, 5e9 + k * 1e7, 80_000 + k]);
      await writeFile(join(dir, 'BTC_USDT_USDT-1h-open_interest.json'), JSON.stringify(rows));
      const clock = manualClock(t0 + 10 * 3_600_000 + 5);
      const source = await replayDerivativesSource({ folder: dir, symbols: ['BTCUSDT', 'ETHUSDT'], clock });
      expect(source.symbols).toEqual(['BTCUSDT']);
      expect(source.metrics).toEqual(['funding', 'open_interest']);
      const { readings } = await source.poll('BTCUSDT');
      // The newest sample at or before the clock, never a later one.
      expect(readings[0]).toMatchObject({ openInterestUsd: 5e9 + 10 * 1e7, openInterestContracts: 80_010 });
      const history = await source.history!(
        source.venues[0]!,
        'BTCUSDT',
        'open_interest',
        t0,
        t0 + 100 * 3_600_000,
      );
      expect(history!.map((p) => p.time)).toEqual(rows.slice(0, 11).map((r) => r[0]));
      expect(
        await source.history!(source.venues[0]!, 'BTCUSDT', 'funding', t0, t0 + 3_600_000),
      ).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
