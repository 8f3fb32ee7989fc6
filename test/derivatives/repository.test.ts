import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type DerivativesRepository,
  type DerivativesTables,
  createKyselyDerivativesRepository,
  createMemoryDerivativesRepository,
} from '../../src/modules/derivatives/index.ts';
import { type RepositoryKind, openTestDatabase, repositoryKinds } from '../harness/db.ts';

const T0 = Date.UTC(2026, 0, 10, 0, 0, 0);
const MINUTE = 60_000;
const HOUR = 3_600_000;

describe.each(repositoryKinds())('derivatives series buckets on %s', (kind: RepositoryKind) => {
  let handle: DbHandle | undefined;
  let repo: DerivativesRepository;
  beforeAll(async () => {
    if (kind === 'memory') repo = createMemoryDerivativesRepository();
    else {
      handle = await openTestDatabase(kind);
      repo = createKyselyDerivativesRepository(tablesOf<DerivativesTables>(handle.db));
    }
    // Three hours of open interest a minute (values with many digits), liquidations on a few minutes.
    await repo.upsert(
      Array.from({ length: 180 }, (_, i) => ({
        symbol: 'BTCUSDT',
        metric: 'open_interest' as const,
        time: T0 + i * MINUTE + 7,
        value: 5_123_456_789.123456 + i,
        value2: i % 2 ? null : 80_000.5 + i,
      })),
    );
    await repo.upsert(
      [5, 6, 70, 175].map((m, i) => ({
        symbol: 'BTCUSDT',
        metric: 'liquidations' as const,
        time: T0 + m * MINUTE,
        value: 1000 * (i + 1),
        value2: 0.1 * (i + 1),
      })),
    );
  });
  afterAll(async () => handle?.close());

  it('last: the newest point of each interval, exact values and nulls kept, oldest first', async () => {
    const hourly = await repo.buckets('BTCUSDT', 'open_interest', HOUR, T0, T0 + 3 * HOUR, 1000, 'last');
    expect(hourly).toEqual(
      [0, 1, 2].map((h) => ({
        start: T0 + h * HOUR,
        time: T0 + (h * 60 + 59) * MINUTE + 7,
        value: 5_123_456_789.123456 + h * 60 + 59,
        value2: null,
      })),
    );
    const minutes = await repo.buckets(
      'BTCUSDT',
      'open_interest',
      MINUTE,
      T0 + 10 * MINUTE,
      T0 + 13 * MINUTE,
      2,
      'last',
    );
    expect(minutes).toEqual([
      { start: T0 + 10 * MINUTE, time: T0 + 10 * MINUTE + 7, value: 5_123_456_799.123456, value2: 80_010.5 },
      { start: T0 + 11 * MINUTE, time: T0 + 11 * MINUTE + 7, value: 5_123_456_800.123456, value2: null },
    ]);
  });

  it('sum: the sums of each interval holding data, at the time of its newest point; empty ranges answer []', async () => {
    const hourly = await repo.buckets('BTCUSDT', 'liquidations', HOUR, T0, T0 + 3 * HOUR, 1000, 'sum');
    expect(hourly.map((b) => ({ ...b, value2: Number(b.value2?.toFixed(6)) }))).toEqual([
      { start: T0, time: T0 + 6 * MINUTE, value: 3000, value2: 0.3 },
      { start: T0 + HOUR, time: T0 + 70 * MINUTE, value: 3000, value2: 0.3 },
      { start: T0 + 2 * HOUR, time: T0 + 175 * MINUTE, value: 4000, value2: 0.4 },
    ]);
    expect(
      await repo.buckets('BTCUSDT', 'liquidations', HOUR, T0 + 4 * HOUR, T0 + 5 * HOUR, 10, 'sum'),
    ).toEqual([]);
    expect(await repo.buckets('ETHUSDT', 'open_interest', HOUR, T0, T0 + HOUR, 10, 'last')).toEqual([]);
  });
});
