import { describe, expect, it } from 'vitest';
import {
  type Bar,
  createPredictionsService,
  createMemoryPredictionRepository,
  type PredictionRepository,
  type PredictionsMarketPort,
} from '../../src/modules/predictions/index.ts';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { createKyselyPredictionRepository } from '../../src/modules/predictions/index.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

const MIN = 60_000;
const START = Date.UTC(2025, 0, 6);

/**
 * Days of 1m bars before START: enough for the model's first fit (three days of outcomes) to come before the
 * 24 h a fresh install backfills, so that span is real model output throughout.
 */
const HISTORY_DAYS = 4.5;

/**
 * A market of deterministic 1m random walks with HISTORY_DAYS of closed bars before START. `distortAfter`
 * changes every bar that closes after that instant (the "future" of the leakage test).
 */
function market(clock: { now(): number }, distortAfter = Number.POSITIVE_INFINITY): PredictionsMarketPort {
  const bars = new Map<string, Bar[]>();
  for (const [k, sym] of ['BTCUSDT', 'ETHUSDT'].entries()) {
    const list: Bar[] = [];
    let p = k ? 3000 : 60000;
    for (let i = 0; i < HISTORY_DAYS * 24 * 60 + 240; i++) {
      const openTime = START - HISTORY_DAYS * 24 * 60 * MIN + i * MIN;
      const shock = openTime + MIN > distortAfter ? 0.004 * Math.cos(i) : 0;
      const r = Math.sin(i * 0.37 + k) * 0.0008 + Math.cos(i * 0.011) * 0.0003 + shock;
      const open = p;
      p *= Math.exp(r);
      list.push({
        openTime,
        open,
        high: Math.max(open, p),
        low: Math.min(open, p),
        close: p,
        volume: 5 + (i % 7),
      });
    }
    bars.set(sym, list);
  }
  return {
    symbols: () => ['BTCUSDT', 'ETHUSDT'],
    snapshot: () => ({
      mid: null,
      bookImbalance: null,
      tradeImbalance5m: null,
      fundingRate: null,
      basisBps: null,
    }),
    recentCandles: (s, _i, count) =>
      bars
        .get(s)!
        .filter((b) => b.openTime + MIN <= clock.now())
        .slice(-count),
  };
}

const setup = (distortAfter?: number) => setupOn(createMemoryPredictionRepository(), distortAfter);

function setupOn<R extends PredictionRepository>(
  repository: R,
  distortAfter?: number,
  candleHistory = HISTORY_DAYS * 24 * 60,
) {
  const clock = manualClock(START);
  const service = createPredictionsService({
    market: market(clock, distortAfter),
    repository,
    clock,
    refreshMs: MIN,
    candleHistory,
  });
  return { clock, repository, service };
}

type Setup = ReturnType<typeof setup>;

/**
 * A fresh install's warm-up and backfill is seconds of CPU: made once here and shared by the tests that only
 * read it (none of them may refresh it or write to its record).
 */
let sharedInstall: Promise<Setup & { count: number }> | undefined;
const freshInstall = () =>
  (sharedInstall ??= (async () => {
    const s = setup();
    return { ...s, count: await s.service.warmUpAndBackfill() };
  })());
/** The shared fresh install for a test that goes on to refresh it: any later test gets a new one. */
const takeFreshInstall = () => {
  const taken = freshInstall();
  sharedInstall = undefined;
  return taken;
};

const page = (service: ReturnType<typeof createPredictionsService>, include: Record<string, boolean> = {}) =>
  JSON.parse(
    service
      .predictions({ symbol: 'BTCUSDT', horizon: '1h', granularityMs: 15 * MIN, limit: 96, ...include })
      .toString(),
  ).data as Array<Record<string, unknown>>;

/** What a forecast made before the model's first fit looks like (and a fitted one rating no side likelier). */
const placeholder = (r: { prediction: number; baseline: number; confidence: number }) =>
  r.prediction === r.baseline && r.confidence === 0.5;

describe('prediction backfill', () => {
  it('a fresh install has a full 96-point page right after start, every point marked backfilled', async () => {
    const { service, repository, count } = await freshInstall();
    expect(count).toBeGreaterThan(0);
    const points = page(service, { backfilled: true });
    expect(points).toHaveLength(96);
    expect(points.every((p) => p.backfilled === true)).toBe(true);
    // The datapoint fields are the documented ones unless asked for more.
    expect(Object.keys(page(service)[0]!)).not.toContain('backfilled');
    // Stored with the mark, one per 5 minutes per symbol and horizon, over the last 24 h.
    expect(repository.rows.length).toBe(count);
    expect(repository.rows.every((r) => r.backfilled)).toBe(true);
    const times = repository.rows.map((r) => r.generated_at);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(START - 24 * 60 * MIN);
    expect(Math.max(...times)).toBeLessThanOrEqual(START);
    // Real model output: flat at 0.5 only where the fitted calibrator rates neither side above even (rare);
    // before the first fit every forecast looks so.
    expect(repository.rows.filter(placeholder).length).toBeLessThan(repository.rows.length / 100);
  });

  it('with too little history for the first fit, the backfill leaves the span out instead of storing placeholders', async () => {
    // The market's working window (3 days and 2 hours): the model's first fit needs three days of outcomes, so
    // little or nothing of the last 24 h can be real model output.
    const { service, repository } = setupOn(createMemoryPredictionRepository(), undefined, 3 * 24 * 60 + 120);
    const count = await service.warmUpAndBackfill();
    const fullCount = (await freshInstall()).count;
    expect(count).toBeLessThan(fullCount / 4);
    expect(repository.rows.filter(placeholder)).toEqual([]);
    // What is backfilled is marked, and what the page shows is only that.
    expect(page(service, { backfilled: true }).length).toBeLessThanOrEqual(count);
    expect(page(service, { backfilled: true }).every((p) => p.backfilled === true)).toBe(true);
  });

  it('warms up in slices: the event loop is never held for more than a few tens of milliseconds', async () => {
    const { service } = setup();
    // Measured in this process's CPU time, not wall time: on a busy machine the process is also descheduled in
    // the middle of a slice, which stretches the wall-clock gap between loop turns without the warm-up holding
    // the loop any longer. A ticker records the CPU time spent between consecutive turns of the event loop.
    const cpuMs = () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1_000;
    };
    let ticking = true;
    let turns = 0;
    const holds: number[] = [];
    let lastTurn = cpuMs();
    const tick = () => {
      const now = cpuMs();
      holds.push(now - lastTurn);
      lastTurn = now;
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const started = cpuMs();
    await service.warmUpAndBackfill();
    const took = cpuMs() - started;
    // One more turn, so a hold at the very end is recorded too.
    const before = turns;
    await waitUntil(() => turns > before, 'one more event-loop turn', 5_000, 1);
    ticking = false;
    // Long enough to matter: held in one piece it would have stalled every request for all of it.
    expect(took).toBeGreaterThan(300);
    // Slices of about 10 ms: 95 % of the gaps between turns far below 50 ms of CPU. The process's CPU time also
    // counts other threads (collections, the storage thread), so a single gap may hold more than the slice;
    // still, none comes near the whole warm-up, as it would held in one piece.
    holds.sort((a, b) => a - b);
    expect(holds[Math.floor(holds.length * 0.95)]!).toBeLessThan(50);
    expect(holds.at(-1)!).toBeLessThan(took / 3);
    // …and the loop really turned all along (held in one piece, the ticker turns once or twice).
    expect(turns).toBeGreaterThan(took / 50);
  });

  it('no backfilled forecast sees a candle that closed after it was made (walk-forward, no look-ahead)', async () => {
    const cut = START - 10 * 60 * MIN;
    const plain = await freshInstall();
    const altered = setup(cut);
    await altered.service.warmUpAndBackfill();
    const upToCut = (rows: typeof plain.repository.rows) =>
      rows
        .filter((r) => r.generated_at <= cut)
        .sort(
          (a, b) =>
            a.generated_at - b.generated_at ||
            a.symbol.localeCompare(b.symbol) ||
            a.horizon.localeCompare(b.horizon),
        );
    const a = upToCut(plain.repository.rows);
    expect(a.length).toBeGreaterThan(500);
    expect(upToCut(altered.repository.rows)).toEqual(a);
    // …and the altered future does change what comes after the cut (the test can fail).
    const pastCut = (rows: typeof plain.repository.rows) =>
      rows.filter((r) => r.generated_at > cut).map((r) => r.prediction);
    expect(pastCut(altered.repository.rows)).not.toEqual(pastCut(plain.repository.rows));
  });

  it('a restart backfills only what the stored record lacks', async () => {
    // The first run's record, copied: the restarted service adds to its own store, not to the shared install's.
    const first = await freshInstall();
    const repository = createMemoryPredictionRepository();
    await repository.insert(first.repository.rows);
    const stored = repository.rows.length;
    expect(stored).toBe(first.count);
    const clock = manualClock(START + 30 * MIN);
    const again = createPredictionsService({
      market: market(clock),
      repository,
      clock,
      refreshMs: MIN,
    });
    await again.load();
    const added = await again.warmUpAndBackfill();
    // Only the 30 minutes since the newest stored datapoint: 6 steps × 2 symbols × 3 horizons at most.
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(6 * 2 * 3);
    expect(repository.rows.length).toBe(stored + added);
  });

  it('backfilled forecasts are scored but kept out of the live track record', async () => {
    // Refreshes the shared install, so it takes it (and runs last of those sharing it).
    const { service, repository, clock } = await takeFreshInstall();
    await service.refresh();
    const scored = repository.rows.filter((r) => r.backfilled && r.scored_at !== null);
    expect(scored.length).toBeGreaterThan(100);
    const report = JSON.parse(service.performance().toString());
    expect(report.data).toEqual([]);
    // Live forecasts, once scored, do enter it.
    for (let i = 0; i < 20; i++) {
      clock.advance(MIN);
      await service.refresh();
    }
    const live = JSON.parse(service.performance().toString()).data;
    expect(live.some((d: { horizon: string }) => d.horizon === '15m')).toBe(true);
  });
});

describe.each(dbKinds())('paging back through the stored record on %s', (kind) => {
  it('from/to pages reach past the 96 most recent buckets, without overlap', async () => {
    const handle = await openTestDatabase(kind);
    try {
      const { service } = setupOn(createKyselyPredictionRepository(tablesOf(handle.db)));
      await service.warmUpAndBackfill();
      const q = { symbol: 'BTCUSDT', horizon: '1h' as const, granularityMs: 5 * MIN, limit: 96 };
      const pageOf = async (to: number) =>
        (
          JSON.parse((await service.predictionsBetween(q, 0, to)).toString()).data as Array<{
            generatedAt: string;
          }>
        ).map((d) => Date.parse(d.generatedAt));
      const newest = await pageOf(START);
      expect(newest).toHaveLength(96);
      const older = await pageOf(newest[0]! - 1);
      expect(older).toHaveLength(96);
      expect(older.at(-1)!).toBeLessThan(newest[0]!);
      expect(older.at(-1)!).toBe(newest[0]! - 5 * MIN);
      // The in-memory page and the stored record agree on the newest span.
      const memory = JSON.parse(service.predictions(q).toString()).data.map((d: { generatedAt: string }) =>
        Date.parse(d.generatedAt),
      );
      expect(memory).toEqual(newest);
    } finally {
      await handle.close();
    }
  });
});
