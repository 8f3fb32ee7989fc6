import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type PredictionRepository,
  type PredictionRow,
  type ScoreUpdate,
  createMemoryPredictionRepository,
} from '../../src/modules/predictions/repository.ts';
import { createKyselyPredictionRepository } from '../../src/modules/predictions/repository.kysely.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';
import type { Horizon } from '../../src/modules/identifiers/index.ts';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;

const row = (symbol: string, horizon: Horizon, generatedAt: number, over: Partial<PredictionRow> = {}) =>
  ({
    symbol,
    horizon,
    generated_at: generatedAt,
    baseline: 60000.5,
    prediction: 60123.25,
    expected_move_pct: 0.2046,
    confidence: 0.61,
    factors: { orderflow: 0.12, funding: -0.03, macro: 0, ai_residual: 1e-7 },
    quantiles: { p05: 59000.1, p25: 59800, p50: 60100, p75: 60400, p95: 61000.9 },
    model_version: '1.1.0',
    sigma: 0.0042,
    sigma_rw: 0.0051,
    realized: null,
    hit: null,
    crps: null,
    crps_rw: null,
    crps_garch: null,
    crps_har_rv: null,
    covered80: null,
    covered90: null,
    scored_at: null,
    backfilled: false,
    direction_earned: true,
    facts: { fundingRate: 0.0001, vol1h: 0.004, vol1hMedian: 0.003, volDays: 3 },
    ...over,
  }) satisfies PredictionRow;

/**
 * The prediction record on every backend, checked against its in-memory twin. `since` reads the whole
 * table, so each test uses its own time range (far apart) on one shared database per backend.
 */
describe.each(dbKinds())('prediction repository on %s', (kind) => {
  let handle: DbHandle;
  let repo: PredictionRepository;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    repo = createKyselyPredictionRepository(tablesOf(handle.db));
  });
  afterAll(() => handle?.close());

  it('round-trips every column: jsonb objects, doubles, nullable booleans, bigint times as numbers', async () => {
    const base = T0 + 1_000 * MIN;
    const rows = [
      row('BTCUSDT', '15m', base),
      row('ETHUSDT', '1h', base + MIN, { factors: {}, confidence: 0, direction_earned: false, facts: {} }),
    ];
    await repo.insert(rows);
    const got = await repo.since(base);
    expect(got).toEqual(rows);
    expect(typeof got[0]?.generated_at).toBe('number');
    expect(got[0]?.factors).toEqual({ orderflow: 0.12, funding: -0.03, macro: 0, ai_residual: 1e-7 });
    expect(got[0]?.quantiles.p95).toBe(61000.9);
  });

  it('insert ignores a datapoint already recorded (same symbol, horizon, generated_at)', async () => {
    const base = T0 + 2_000 * MIN;
    await repo.insert([row('BTCUSDT', '15m', base)]);
    await repo.insert([row('BTCUSDT', '15m', base, { prediction: 1 }), row('BTCUSDT', '1h', base)]);
    const got = await repo.since(base);
    expect(got.map((r) => [r.horizon, r.prediction])).toEqual([
      ['15m', 60123.25],
      ['1h', 60123.25],
    ]);
  });

  it('score writes outcomes to the matching rows only; since is oldest first like the memory twin', async () => {
    const base = T0 + 3_000 * MIN;
    const memory = createMemoryPredictionRepository();
    // More than one insert batch (500), generated newest first.
    const rows: PredictionRow[] = [];
    for (let i = 599; i >= 0; i--) rows.push(row('SOLUSDT', '15m', base + i * MIN));
    rows.push(row('BTCUSDT', '15m', base + 10 * MIN));
    for (const r of [repo, memory]) await r.insert(rows);
    const updates: ScoreUpdate[] = [5, 6, 599].map((i) => ({
      symbol: 'SOLUSDT',
      horizon: '15m',
      generated_at: base + i * MIN,
      realized: 61000.75,
      hit: i !== 6,
      crps: 12.5,
      crps_rw: 14.25,
      crps_garch: 13.5,
      crps_har_rv: i === 6 ? null : 13.75,
      covered80: true,
      covered90: false,
      scored_at: base + (i + 15) * MIN,
    }));
    for (const r of [repo, memory]) await r.score(updates);
    await repo.score([]);

    const got = await repo.since(base);
    expect(got).toHaveLength(601);
    expect(got.map((r) => r.generated_at)).toEqual([...got.map((r) => r.generated_at)].sort((a, b) => a - b));
    const sol = got.filter((r) => r.symbol === 'SOLUSDT');
    expect(sol).toEqual((await memory.since(base)).filter((r) => r.symbol === 'SOLUSDT'));
    expect(sol[6]).toMatchObject({
      hit: false,
      covered80: true,
      covered90: false,
      scored_at: base + 21 * MIN,
    });
    expect(typeof sol[6]?.scored_at).toBe('number');
    expect(sol.filter((r) => r.scored_at !== null).map((r) => r.generated_at)).toEqual(
      [5, 6, 599].map((i) => base + i * MIN),
    );
    // The BTC row at the same time as SOL #10 was not touched.
    expect(got.find((r) => r.symbol === 'BTCUSDT')?.scored_at).toBeNull();
    expect(await repo.since(base + 599 * MIN)).toHaveLength(1);
  });
  it('scores more rows than one statement carries (500) in one refresh, as the memory twin does', async () => {
    const base = T0 + 9_000 * MIN;
    const memory = createMemoryPredictionRepository();
    const rows = Array.from({ length: 620 }, (_, i) =>
      row(i % 2 ? 'ETHUSDT' : 'XRPUSDT', '1h', base + i * MIN),
    );
    for (const r of [repo, memory]) await r.insert(rows);
    const updates: ScoreUpdate[] = rows.slice(0, 560).map((r, i) => ({
      symbol: r.symbol,
      horizon: r.horizon,
      generated_at: r.generated_at,
      realized: 100 + i / 8,
      hit: i % 3 === 0,
      crps: i % 5 ? 0.5 + i : null,
      crps_rw: 1.25,
      crps_garch: i % 7 ? 1.5 : null,
      crps_har_rv: 1.75,
      covered80: i % 2 === 0,
      covered90: true,
      scored_at: base + (i + 60) * MIN,
    }));
    for (const r of [repo, memory]) await r.record([], updates);
    const got = await repo.since(base);
    expect(got).toEqual(await memory.since(base));
    expect(got.filter((r) => r.scored_at !== null)).toHaveLength(560);
    expect(got[7]).toMatchObject({ realized: 100.875, hit: false, crps: 7.5, covered80: false });
    expect(got[10]?.crps).toBeNull();
  });
});
