import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import type { Candle } from '../../src/modules/market/candles.ts';
import {
  type CandleRepository,
  type StoredCandle,
  createMemoryCandleRepository,
} from '../../src/modules/market/repository.ts';
import { createKyselyCandleRepository } from '../../src/modules/market/repository.kysely.ts';
import type { MarketTables } from '../../src/modules/market/tables.ts';
import { StaleLeaderError } from '../../src/shared/leadership.ts';
import { databaseKinds, openTestDatabase } from '../harness/db.ts';
import { believedTerm, holdLease } from '../harness/leases.ts';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;

const candle = (symbol: string, i: number, venue = 'binance', over: Partial<Candle> = {}): StoredCandle => ({
  symbol,
  venue,
  interval: '1m',
  openTime: T0 + i * MIN,
  open: 100 + i,
  high: 101.25 + i,
  low: 99.5 + i,
  close: 100.125 + i,
  volume: 0.1 + i / 3,
  quoteVolume: 10.5 + i,
  ...over,
});
const plain = ({ symbol: _s, venue: _v, interval: _i, ...c }: StoredCandle): Candle => c;

/**
 * The candle store on every backend, checked against its in-memory twin. One database per backend; each
 * test writes its own symbol, so the tests share it without interfering.
 */
describe.each(databaseKinds())('candle repository on %s', (kind) => {
  let handle: DbHandle;
  let repo: CandleRepository;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    repo = createKyselyCandleRepository(tablesOf<MarketTables>(handle.db));
  });
  afterAll(() => handle?.close());

  it('reads back exactly what it stored, as numbers (bigint open time, double prices)', async () => {
    const rows = [candle('AAAUSDT', 0), candle('AAAUSDT', 1), candle('AAAUSDT', 2)];
    await repo.upsert(rows);
    const got = await repo.range('AAAUSDT', 'binance', '1m', T0, T0 + 10 * MIN, 100);
    expect(got).toEqual(rows.map(plain));
    for (const c of got) for (const v of Object.values(c)) expect(typeof v).toBe('number');
    // Doubles survive the round trip bit for bit.
    const awkward = candle('AAAUSDT', 5, 'binance', {
      close: 0.1 + 0.2,
      volume: 1e-9,
      quoteVolume: 123456789.123,
    });
    await repo.upsert([awkward]);
    expect(await repo.at('AAAUSDT', 'binance', '1m', T0 + 5 * MIN)).toEqual(plain(awkward));
  });

  it('refuses a write from a stale leadership term and stores nothing; the current term writes', async () => {
    const job = `market-${kind}`;
    await holdLease(handle.db, job, 5);
    const rows = [candle('FENCEUSDT', 0), candle('FENCEUSDT', 1)];
    await expect(repo.upsert(rows, believedTerm(job, 4))).rejects.toThrow(StaleLeaderError);
    expect(await repo.range('FENCEUSDT', 'binance', '1m', 0, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    await repo.upsert(rows, believedTerm(job, 5));
    expect(await repo.range('FENCEUSDT', 'binance', '1m', 0, Number.MAX_SAFE_INTEGER, 10)).toHaveLength(2);
  });

  it('upsert replaces by (symbol, venue, interval, open time)', async () => {
    await repo.upsert([candle('BBBUSDT', 0), candle('BBBUSDT', 1)]);
    await repo.upsert([candle('BBBUSDT', 1, 'binance', { close: 7, high: 200 })]);
    const got = await repo.range('BBBUSDT', 'binance', '1m', 0, Number.MAX_SAFE_INTEGER, 10);
    expect(got.map((c) => c.close)).toEqual([100.125, 7]);
    expect(got[1]?.high).toBe(200);
    // Same key as another venue or interval is a different row.
    await repo.upsert([candle('BBBUSDT', 1, 'kraken', { close: 8 })]);
    await repo.upsert([{ ...candle('BBBUSDT', 1), interval: '5m', close: 9 }]);
    expect((await repo.at('BBBUSDT', 'binance', '1m', T0 + MIN))?.close).toBe(7);
    expect((await repo.at('BBBUSDT', 'kraken', '1m', T0 + MIN))?.close).toBe(8);
    expect((await repo.at('BBBUSDT', 'binance', '5m', T0 + MIN))?.close).toBe(9);
  });

  // Once a bug: the same key twice in one statement failed the whole batch ("ON CONFLICT DO UPDATE command
  // cannot affect row a second time"). upsert now keeps the last row per key, like the memory twin.
  it('upsert with the same key twice in one call keeps the last one, like the memory twin', async () => {
    await repo.upsert([
      candle('BBBUSDT', 2, 'binance', { close: 1 }),
      candle('BBBUSDT', 3),
      candle('BBBUSDT', 2, 'binance', { close: 2 }),
    ]);
    expect((await repo.at('BBBUSDT', 'binance', '1m', T0 + 2 * MIN))?.close).toBe(2);
  });

  it('range: from inclusive, to exclusive, oldest first, limited; across several insert batches', async () => {
    // Inserted newest first and across several batches: the order must come from ORDER BY, not insertion.
    const rows = Array.from({ length: 4500 }, (_, i) => candle('CCCUSDT', 4499 - i));
    await repo.upsert(rows);
    const all = await repo.range('CCCUSDT', 'binance', '1m', T0, T0 + 4500 * MIN, 5000);
    expect(all).toHaveLength(4500);
    expect(all.map((c) => c.openTime)).toEqual(Array.from({ length: 4500 }, (_, i) => T0 + i * MIN));
    const page = await repo.range('CCCUSDT', 'binance', '1m', T0 + 10 * MIN, T0 + 20 * MIN, 5);
    expect(page.map((c) => c.openTime)).toEqual([10, 11, 12, 13, 14].map((i) => T0 + i * MIN));
    const window = await repo.range('CCCUSDT', 'binance', '1m', T0 + 10 * MIN, T0 + 20 * MIN, 100);
    expect(window).toHaveLength(10);
    expect(window.at(-1)?.openTime).toBe(T0 + 19 * MIN);
    expect(await repo.range('CCCUSDT', 'binance', '1m', T0 + 5 * MIN, T0 + 5 * MIN, 10)).toEqual([]);
  });

  it('latestOpenTime and at agree with the in-memory twin', async () => {
    const memory = createMemoryCandleRepository();
    const rows = [3, 7, 1, 12].map((i) => candle('DDDUSDT', i));
    await repo.upsert(rows);
    await memory.upsert(rows);
    expect(await repo.latestOpenTime('DDDUSDT', 'binance', '1m')).toBe(T0 + 12 * MIN);
    expect(await repo.latestOpenTime('DDDUSDT', 'okx', '1m')).toBeUndefined();
    expect(await repo.latestOpenTime('NOPEUSDT', 'binance', '1m')).toBeUndefined();
    for (const at of [T0 - 1, T0 + MIN, T0 + 3 * MIN, T0 + 3 * MIN + 1, T0 + 11 * MIN, T0 + 99 * MIN]) {
      expect(await repo.at('DDDUSDT', 'binance', '1m', at), String(at)).toEqual(
        await memory.at('DDDUSDT', 'binance', '1m', at),
      );
    }
    expect(await repo.range('DDDUSDT', 'binance', '1m', 0, T0 + 100 * MIN, 3)).toEqual(
      await memory.range('DDDUSDT', 'binance', '1m', 0, T0 + 100 * MIN, 3),
    );
  });

  it('open times beyond 2^31 ms and symbols differing only in case stay distinct', async () => {
    const far = Date.UTC(2090, 0, 1); // well past int4, still a safe integer
    await repo.upsert([candle('EEEUSDT', 0, 'binance', { openTime: far }), candle('eeeusdt', 0)]);
    expect(await repo.latestOpenTime('EEEUSDT', 'binance', '1m')).toBe(far);
    expect(await repo.latestOpenTime('eeeusdt', 'binance', '1m')).toBe(T0);
  });
});
