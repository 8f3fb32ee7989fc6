import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { presentLedgerEntry } from '../present.ts';
import { type PredictionRow, createMemoryPredictionRepository } from '../repository.ts';
import { canonicalJson, canonicalPayload } from './canonical.ts';
import { GENESIS_HASH } from './chain.ts';
import { createLedgerVerifier, verifyStoredLedger } from './verify.ts';

const T0 = Date.UTC(2026, 0, 5, 12);
const MIN = 60_000;

const row = (symbol: string, generatedAt: number, over: Partial<PredictionRow> = {}): PredictionRow => ({
  symbol,
  horizon: '15m',
  generated_at: generatedAt,
  baseline: 60000.5,
  prediction: 60123.25,
  expected_move_pct: 0.2046,
  direction_earned: false,
  facts: {},
  confidence: 0.61,
  factors: { orderflow: 0.5, funding: 0, macro: -0.25, ai_residual: 0.25 },
  quantiles: { p05: 59000.1, p10: 59500, p50: 60100, p90: 60700, p95: 61000.9 },
  model_version: 'meridian-ens-1.6.0',
  sigma: 0.004,
  sigma_rw: 0.005,
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
  ...over,
});

/** A memory record of `n` refreshes of two symbols, recorded as the refresh happens. */
async function ledgerOf(n: number, btcPrediction = (_i: number) => 60123.25) {
  let now = T0;
  const repo = createMemoryPredictionRepository({ now: () => now });
  for (let i = 0; i < n; i++) {
    now = T0 + i * MIN;
    const btc = row('BTCUSDT', now, { prediction: btcPrediction(i) });
    await repo.record([btc, row('ETHUSDT', now, { baseline: 3000, prediction: 2999 })], []);
  }
  return repo;
}

const publicEntries = (repo: Awaited<ReturnType<typeof ledgerOf>>) =>
  repo.entries.map((e) =>
    presentLedgerEntry(
      e,
      repo.rows.find((r) => r.symbol === e.symbol && r.generated_at === e.generated_at),
    ),
  );

describe('forecast ledger', () => {
  it('canonical JSON: sorted keys at every depth, no whitespace, shortest numbers, whatever the insertion order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1e-7, 0.1, 100], c: 'x"y' }, e: null, f: true })).toBe(
      '{"a":{"c":"x\\"y","d":[1e-7,0.1,100]},"b":1,"e":null,"f":true}',
    );
    const shuffled = row('BTCUSDT', T0, {
      factors: { ai_residual: 0.25, macro: -0.25, funding: 0, orderflow: 0.5 },
    });
    expect(canonicalPayload(shuffled)).toBe(canonicalPayload(row('BTCUSDT', T0)));
    expect(canonicalPayload(row('BTCUSDT', T0))).toBe(
      '{"backfilled":false,"baseline":60000.5,"confidence":0.61,"expectedMovePct":0.2046,' +
        '"factors":{"ai_residual":0.25,"funding":0,"macro":-0.25,"orderflow":0.5},"generatedAt":"2026-01-05T12:00:00.000Z",' +
        '"horizon":"15m","modelVersion":"meridian-ens-1.6.0","prediction":60123.25,' +
        '"quantiles":{"p05":59000.1,"p10":59500,"p50":60100,"p90":60700,"p95":61000.9},"symbol":"BTCUSDT"}',
    );
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/non-finite/);
  });

  it('appends one entry per stored datapoint, linked from the genesis hash, each hash reproducible with plain SHA-256', async () => {
    const repo = await ledgerOf(3);
    // A datapoint already stored is not appended again.
    await repo.record([row('BTCUSDT', T0)], []);
    expect(repo.entries.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(repo.entries[0]!.prev_hash).toBe(GENESIS_HASH);
    for (const [i, e] of repo.entries.entries()) {
      if (i > 0) expect(e.prev_hash).toBe(repo.entries[i - 1]!.hash);
      const text = `${e.prev_hash}\n${e.sequence}\n${e.recorded_at}\n${e.payload}`;
      expect(e.hash).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
      expect(JSON.parse(e.payload).symbol).toBe(e.symbol);
    }
    expect(await repo.ledgerHead()).toEqual({ sequence: 6, hash: repo.entries[5]!.hash });
    const backfilled = await repo.insert([row('BTCUSDT', T0 - 60 * MIN, { backfilled: true })]);
    expect(backfilled.sequence).toBe(7);
    expect(repo.entries[6]!.backfilled).toBe(true);
    expect(JSON.parse(repo.entries[6]!.payload).backfilled).toBe(true);
  });

  it('an intact chain verifies, from storage and as exported entries', async () => {
    const repo = await ledgerOf(20);
    const stored = await verifyStoredLedger(repo, { pageSize: 7 });
    expect(stored).toMatchObject({
      ok: true,
      entries: 40,
      datapoints: 40,
      firstSequence: 1,
      anchor: GENESIS_HASH,
    });
    const verifier = createLedgerVerifier({ expectHead: { sequence: 40, hash: repo.entries[39]!.hash } });
    for (const e of publicEntries(repo)) expect(verifier.add(e)).toBe(true);
    expect(verifier.finish().ok).toBe(true);
  });

  it('names the first broken entry: an edited payload, an edited stored datapoint, a missing entry, a rewritten tail', async () => {
    const verify = (
      entries: ReturnType<typeof publicEntries>,
      expectHead?: { sequence: number; hash: string },
    ) => {
      const v = createLedgerVerifier({ expectHead });
      for (const e of entries) if (!v.add(e)) break;
      return v.finish();
    };
    const repo = await ledgerOf(10);
    const entries = publicEntries(repo);

    const edited = entries.map((e) => ({ ...e }));
    edited[6]!.payload = edited[6]!.payload.replace('"prediction":60123.25', '"prediction":60500');
    expect(verify(edited).problem).toMatchObject({
      sequence: 7,
      reason: expect.stringMatching(/hash does not match/),
    });

    const relinked = entries.map((e) => ({ ...e }));
    relinked[4]!.prevHash = 'f'.repeat(64);
    expect(verify(relinked).problem).toMatchObject({
      sequence: 5,
      reason: expect.stringMatching(/prevHash/),
    });

    const gap = entries.filter((e) => e.sequence !== 6);
    expect(verify(gap).problem).toMatchObject({ sequence: 7, reason: expect.stringMatching(/follows 5/) });

    // The whole tail recomputed after a change: consistent in itself, but not with a head seen earlier.
    const seen = { sequence: 20, hash: entries[19]!.hash };
    const rewritten = publicEntries(await ledgerOf(10, (i) => (i === 3 ? 61000 : 60123.25)));
    expect(verify(rewritten).ok).toBe(true);
    expect(verify(rewritten, seen).problem).toMatchObject({
      sequence: 20,
      reason: expect.stringMatching(/differs from the head recorded earlier/),
    });
    expect(verify(entries.slice(0, 15), seen).problem?.reason).toMatch(
      /ends at entry 15, before the head recorded earlier/,
    );

    // Storage: a stored datapoint that no longer says what its entry committed.
    repo.rows.find((r) => r.symbol === 'ETHUSDT' && r.generated_at === T0 + 3 * MIN)!.prediction = 3100;
    const stored = await verifyStoredLedger(repo);
    expect(stored.problem).toMatchObject({
      sequence: 8,
      symbol: 'ETHUSDT',
      reason: expect.stringMatching(/stored datapoint differs/),
    });
  });

  it('a stored datapoint is compared with its entry by value: a changed, added or removed quantile is named; -0 and 0 agree', async () => {
    const problemOf = async (change: (r: PredictionRow) => void) => {
      const repo = await ledgerOf(3);
      change(repo.rows.find((r) => r.symbol === 'BTCUSDT' && r.generated_at === T0 + MIN)!);
      return (await verifyStoredLedger(repo)).problem;
    };
    const named = { sequence: 3, reason: expect.stringMatching(/stored datapoint differs/) };
    expect(await problemOf((r) => (r.quantiles = { ...r.quantiles, p50: 60100.000001 }))).toMatchObject(
      named,
    );
    expect(await problemOf((r) => (r.quantiles = { ...r.quantiles, p99: 62000 }))).toMatchObject(named);
    expect(await problemOf((r) => delete r.quantiles.p95)).toMatchObject(named);
    expect(await problemOf((r) => (r.factors = { ...r.factors, funding: '0' as never }))).toMatchObject(
      named,
    );
    expect(await problemOf((r) => (r.model_version = 'meridian-ens-1.5.0'))).toMatchObject(named);
    // JSON writes -0 as 0, so the committed payload and the stored datapoint still agree.
    expect(await problemOf((r) => (r.factors = { ...r.factors, funding: -0 }))).toBeNull();
    // Keys in another order are the same datapoint.
    expect(
      await problemOf((r) => (r.quantiles = Object.fromEntries(Object.entries(r.quantiles).reverse()))),
    ).toBeNull();
  });

  it('re-scores outcomes against the committed forecast: a flipped hit or coverage is named', async () => {
    const repo = await ledgerOf(3);
    const scored = (over: Partial<PredictionRow>) => {
      const r = repo.rows[2]!; // BTCUSDT at T0 + 1 min: up from 60000.5, p10 59500 … p90 60700
      Object.assign(r, { scored_at: r.generated_at + 15 * MIN, ...over });
      return publicEntries(repo);
    };
    const run = (entries: ReturnType<typeof publicEntries>) => {
      const v = createLedgerVerifier();
      for (const e of entries) if (!v.add(e)) break;
      return v.finish();
    };
    expect(run(scored({ realized: 60200, hit: true, covered80: true, covered90: true }))).toMatchObject({
      ok: true,
      outcomes: 1,
    });
    expect(
      run(scored({ realized: 59900, hit: true, covered80: true, covered90: true })).problem,
    ).toMatchObject({
      sequence: 3,
      reason: expect.stringMatching(/hit=true but .* is hit=false/),
    });
    expect(
      run(scored({ realized: 60800, hit: true, covered80: true, covered90: true })).problem?.reason,
    ).toMatch(/covered80=true but the committed quantiles say false/);
  });

  it('a live entry recorded after its horizon had passed is refused; a backfilled one is not', () => {
    const late = (backfilled: boolean) => {
      const repo = createMemoryPredictionRepository({ now: () => T0 + 20 * MIN });
      return repo.insert([row('BTCUSDT', T0, { backfilled })]).then(() => {
        const v = createLedgerVerifier();
        v.add(presentLedgerEntry(repo.entries[0]!, repo.rows[0]));
        return v.finish();
      });
    };
    return Promise.all([late(false), late(true)]).then(([live, backfilled]) => {
      expect(live.problem?.reason).toMatch(/recorded only after its horizon/);
      expect(backfilled.ok).toBe(true);
    });
  });
});
