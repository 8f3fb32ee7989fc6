import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from '../../adapters/db/connect.ts';
import * as migration from '../../adapters/db/migrations/0002_market.ts';
import {
  type CandleRepository,
  type StoredCandle,
  kyselyCandleRepository,
  memoryCandleRepository,
} from './repository.ts';
import type { MarketTables } from './tables.ts';

const row = (i: number, close = 100 + i): StoredCandle => ({
  symbol: 'BTCUSDT',
  venue: 'merged',
  interval: '1m',
  openTime: 1_700_000_000_000 + i * 60_000,
  open: 100,
  high: 200,
  low: 50,
  close,
  volume: 1.5,
  quoteVolume: 150.25,
});

let handle: DbHandle;
beforeAll(async () => {
  handle = await openDatabase({});
  await migration.up(handle.db as unknown as Kysely<unknown>);
});
afterAll(() => handle.close());

describe.each([
  ['kysely (PGlite)', () => kyselyCandleRepository(handle.db as unknown as Kysely<MarketTables>)],
  ['memory twin', () => memoryCandleRepository()],
])('candle repository: %s', (_name, make: () => CandleRepository) => {
  it('upserts in batches by (symbol, venue, interval, open_time) and reads ranges oldest first', async () => {
    const repo = make();
    const venue = `v${Math.random().toString(36).slice(2, 8)}`;
    const rows = Array.from({ length: 4500 }, (_, i) => ({ ...row(i), venue }));
    await repo.upsert(rows);
    await repo.upsert([{ ...row(10, 999), venue }]);
    const got = await repo.range('BTCUSDT', venue, '1m', rows[5]!.openTime, rows[15]!.openTime, 1000);
    expect(got.map((c) => c.openTime)).toEqual(rows.slice(5, 15).map((r) => r.openTime));
    expect(got[5]).toEqual({
      openTime: rows[10]!.openTime,
      open: 100,
      high: 200,
      low: 50,
      close: 999,
      volume: 1.5,
      quoteVolume: 150.25,
    });
    expect(await repo.latestOpenTime('BTCUSDT', venue, '1m')).toBe(rows[4499]!.openTime);
    expect((await repo.at('BTCUSDT', venue, '1m', rows[7]!.openTime + 30_000))?.openTime).toBe(
      rows[7]!.openTime,
    );
    expect(await repo.range('BTCUSDT', venue, '1m', 0, Number.MAX_SAFE_INTEGER, 3)).toHaveLength(3);
    expect(await repo.latestOpenTime('ETHUSDT', venue, '1m')).toBeUndefined();
  });
});
