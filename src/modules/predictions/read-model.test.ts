import { describe, expect, it } from 'vitest';
import { HORIZON_MS, INTERVAL_MS, MAX_LIMIT } from '../identifiers/index.ts';
import { TRACK_RECORD_MS, createReadModel, keepPageRows, newestPerBucket } from './read-model.ts';
import { createRecordLoader } from './record-load.ts';
import { type PredictionRow, createMemoryPredictionRepository } from './repository.ts';
import { SCORED_ROW_BYTES, ScoredColumns, publishedCrps } from './scoring/scored-columns.ts';
import { trackRecord } from './scoring/track-record.ts';
import { PUBLIC_QUANTILES, quantileKey } from './types.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1);

/** A deterministic pseudo-random stream (the test must not depend on Math.random). */
function stream(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

function row(t: number, rand: () => number, scored = false): PredictionRow {
  const baseline = 100 + rand();
  const sigma = 0.002 + 0.01 * rand();
  const prediction = rand() < 0.2 ? baseline : baseline * (1 + (rand() - 0.5) * sigma);
  const quantiles = Object.fromEntries(
    PUBLIC_QUANTILES.map((tau) => [quantileKey(tau), prediction * Math.exp((tau - 0.5) * 2.5 * sigma)]),
  );
  const realized = baseline * Math.exp((rand() - 0.5) * 3 * sigma);
  return {
    symbol: 'BTCUSDT',
    horizon: '1h',
    generated_at: t,
    baseline,
    prediction,
    expected_move_pct: 0,
    confidence: 0.5 + 0.3 * rand(),
    factors: {},
    quantiles,
    model_version: 'test',
    sigma,
    sigma_rw: sigma,
    realized: scored ? realized : null,
    hit: scored ? rand() < 0.55 : null,
    crps: scored ? rand() * sigma : null,
    crps_rw: scored ? rand() * sigma : null,
    crps_garch: scored && rand() < 0.7 ? rand() * sigma : null,
    crps_har_rv: scored && rand() < 0.5 ? rand() * sigma : null,
    covered80: scored ? rand() < 0.8 : null,
    covered90: scored ? rand() < 0.9 : null,
    scored_at: scored ? t + HORIZON_MS['1h'] : null,
    backfilled: false,
    direction_earned: false,
    facts: {} as PredictionRow['facts'],
  } as PredictionRow;
}

describe('pages from the rows a page can show', () => {
  // Minute rows over five days with outages (gaps of hours) and stretches of one row every 5 minutes.
  const rand = stream(7);
  const times: number[] = [];
  for (let t = T0; t < T0 + 5 * 24 * 60 * MINUTE; ) {
    times.push(t);
    const r = rand();
    t += r < 0.002 ? 7 * 60 * MINUTE : r < 0.3 ? 5 * MINUTE : MINUTE;
  }
  const rows = times.map((t) => row(t, rand));
  const keepMs = MAX_LIMIT * 60 * MINUTE + 2 * MINUTE;

  it('answers every granularity and limit exactly as the whole record does, holding at most 5 × 96 rows', () => {
    const model = createReadModel({ keepMs, now: () => T0 });
    let most = 0;
    for (const [k, r] of rows.entries()) {
      model.remember(r);
      most = Math.max(most, model.pageRows('BTCUSDT', '1h'));
      if (k % 397 !== 0 && k !== rows.length - 1) continue;
      const whole = rows.slice(0, k + 1).filter((x) => x.generated_at >= r.generated_at - keepMs);
      for (const g of ['1m', '5m', '15m', '1h'] as const)
        for (const limit of [1, 7, MAX_LIMIT]) {
          const q = { symbol: 'BTCUSDT', horizon: '1h' as const, granularityMs: INTERVAL_MS[g], limit };
          expect(model.select(q)).toEqual(newestPerBucket(whole, q));
        }
    }
    expect(most).toBeLessThanOrEqual(5 * MAX_LIMIT);
    expect(rows.length).toBeGreaterThan(3 * most);
  });

  it('holds at most 5 × 96 rows of a symbol × horizon after days of one-minute refreshes (was every minute of 96 h)', () => {
    const model = createReadModel({ keepMs, now: () => T0 });
    const dense = stream(3);
    let most = 0;
    for (let t = T0; t < T0 + 5 * 24 * 60 * MINUTE; t += MINUTE) {
      model.remember(row(t, dense));
      most = Math.max(most, model.pageRows('BTCUSDT', '1h'));
    }
    expect(most).toBeLessThanOrEqual(5 * MAX_LIMIT);
    expect(model.pageRows('BTCUSDT', '1h')).toBeGreaterThanOrEqual(3 * MAX_LIMIT);
  });

  it('keeps the newest row of each bucket, never an older one of the same bucket', () => {
    const list = [0, 10, 20, 59, 60, 61].map((s) => s * 1000);
    keepPageRows(list, (t) => t, 0, 1, [60_000]);
    expect(list).toEqual([61_000]);
    const two = [0, 10, 20, 59, 60, 61].map((s) => s * 1000);
    keepPageRows(two, (t) => t, 0, 2, [60_000]);
    expect(two).toEqual([59_000, 61_000]);
  });
});

describe('the track record as columns', () => {
  const rand = stream(11);
  const rows = Array.from({ length: 3_000 }, (_, i) => row(T0 + i * MINUTE, rand, true));

  it('holds what the metrics read, in about 76 bytes a datapoint', () => {
    const columns = new ScoredColumns();
    for (const r of rows) columns.append(r);
    expect(SCORED_ROW_BYTES).toBe(76);
    expect(columns.bytes).toBeLessThanOrEqual(2 * rows.length * SCORED_ROW_BYTES);
    const v = columns.view();
    const i = 1_234;
    const r = rows[i]!;
    const c = publishedCrps(r, Math.log(r.realized! / r.baseline));
    expect([v.generatedAt[i], v.confidence[i], v.sigma[i], v.crpsPublished[i], v.crpsReference[i]]).toEqual([
      r.generated_at,
      r.confidence,
      r.sigma,
      c.model,
      c.reference,
    ]);
    expect(Number.isNaN(v.crpsGarch[i]!)).toBe(r.crps_garch === null);
    expect([v.hit[i], v.flat[i], v.covered80[i]]).toEqual([
      r.hit ? 1 : 0,
      r.prediction === r.baseline ? 1 : 0,
      r.covered80 ? 1 : 0,
    ]);
  });

  it('drops the oldest by time and keeps its memory bounded by the window, not by the rows ever seen', () => {
    const columns = new ScoredColumns();
    const window = 500 * MINUTE;
    for (const r of rows) {
      columns.append(r);
      columns.dropBefore(r.generated_at - window);
    }
    expect(columns.length).toBe(501);
    expect(columns.view().generatedAt[0]).toBe(rows.at(-501)!.generated_at);
    expect(columns.bytes).toBeLessThanOrEqual(2 * 1024 * SCORED_ROW_BYTES);
  });

  it('gives the figures computed row by row', () => {
    const columns = new ScoredColumns();
    for (const r of rows) columns.append(r);
    const record = trackRecord(columns.view(), '1h', MINUTE);
    const n = rows.length;
    const crps = rows.map((r) => publishedCrps(r, Math.log(r.realized! / r.baseline)));
    const model = crps.reduce((s, c) => s + c.model, 0);
    const reference = crps.reduce((s, c) => s + c.reference, 0);
    expect(record.count).toBe(n);
    expect(record.hitRate).toBeCloseTo(rows.filter((r) => r.hit).length / n, 12);
    expect(record.coverage80).toBeCloseTo(rows.filter((r) => r.covered80).length / n, 12);
    expect(record.shareFlat).toBeCloseTo(rows.filter((r) => r.prediction === r.baseline).length / n, 12);
    expect(record.crpsSkillVsReference).toBeCloseTo(1 - model / reference, 12);
    const stored = rows.reduce((s, r) => s + r.crps!, 0);
    const rw = rows.reduce((s, r) => s + r.crps_rw!, 0);
    expect(record.crpsSkillVsRandomWalk).toBeCloseTo(1 - stored / rw, 12);
    expect(record.brier).toBeCloseTo(
      rows.reduce((s, r) => s + (r.confidence - (r.hit ? 1 : 0)) ** 2, 0) / n,
      12,
    );
  });

  it('keeps only scored, live rows in the read model, dropping those older than 30 days', () => {
    let now = T0;
    const model = createReadModel({ keepMs: 0, now: () => now });
    const backfilled = { ...rows[0]!, backfilled: true };
    const unscored = row(T0, rand);
    model.trackScored([backfilled, unscored, ...rows.slice(1, 11)]);
    expect(model.scoredRecords()).toBe(10);
    now = rows[5]!.generated_at + 30 * 24 * 60 * MINUTE;
    model.trackScored([rows[11]!]);
    expect(model.scoredRecords()).toBe(7);
  });
});

describe('a full load, a chunk at a time', () => {
  it('reads the record in time spans and ends with the pages, the track record and the latest rows of one read', async () => {
    const rand = stream(5);
    const repo = createMemoryPredictionRepository();
    const end = T0 + 3 * 24 * 60 * MINUTE;
    for (let t = T0; t < end; t += MINUTE)
      for (const symbol of ['BTCUSDT', 'ETHUSDT'])
        for (const horizon of ['15m', '1h', '6h'] as const)
          repo.rows.push({ ...row(t, rand, t < end - 6 * 60 * MINUTE), symbol, horizon });
    let reads = 0;
    const counted = {
      ...repo,
      since(...a: Parameters<typeof repo.since>) {
        reads++;
        return repo.since(...a);
      },
    };
    const now = end;
    const keepMs = MAX_LIMIT * 60 * MINUTE + 2 * MINUTE;
    const model = createReadModel({ keepMs, now: () => now });
    const clock = { now: () => now };
    const options = { readModel: model, clock, refreshMs: MINUTE, keepMs, symbolCount: () => 2 };
    await createRecordLoader({ ...options, repository: counted }).load();
    expect(reads).toBe(2); // 25,920 rows from the oldest, about 20,000 a span

    const scored = repo.rows.filter((r) => r.scored_at !== null && r.generated_at >= now - TRACK_RECORD_MS);
    expect(model.scoredRecords()).toBe(scored.length);
    const all = repo.rows.filter((r) => r.symbol === 'ETHUSDT' && r.horizon === '6h');
    const q = {
      symbol: 'ETHUSDT',
      horizon: '6h' as const,
      granularityMs: INTERVAL_MS['1h'],
      limit: MAX_LIMIT,
    };
    expect(model.select(q)).toEqual(newestPerBucket(all, q));
    expect(model.latest.map((r) => [r.symbol, r.horizon, r.generated_at])).toEqual(
      ['BTCUSDT', 'ETHUSDT'].flatMap((s) => ['15m', '1h', '6h'].map((h) => [s, h, end - MINUTE])),
    );
  });
});
