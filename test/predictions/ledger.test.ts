import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictionsRouteApp } from '../harness/predictions-app.ts';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import { pruneOldData } from '../../src/app/retention.ts';
import type { Config } from '../../src/config/env.ts';
import type { App } from '../../src/http/types.ts';
import { runPredictionsCommand } from '../../src/main/predictions-command.ts';
import {
  type Bar,
  type PredictionRepository,
  type PredictionsMarketPort,
  type PublicLedgerEntry,
  createKyselyPredictionRepository,
  createMemoryPredictionRepository,
  createPredictionsService,
  verifyStoredLedger,
} from '../../src/modules/predictions/index.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const START = Date.UTC(2025, 0, 6);
const REFRESHES = 20;
/** Enough 1m history for the model's first fit (three days of outcomes) before the 24 h a backfill covers. */
const HISTORY_DAYS = 4.5;
/**
 * The 1m bars a live service holds: enough for the first fit at every horizon (the 6 h ones after 3 d 6 h of
 * bars) before its first refresh, and no more (its warm-up replays all of them).
 */
const LIVE_HISTORY_DAYS = 3.5;

/** Deterministic 1m bars for two symbols, closed ones only up to the clock. */
function fakeMarket(clock: { now(): number }): PredictionsMarketPort {
  const bars = new Map<string, Bar[]>();
  for (const [k, sym] of ['BTCUSDT', 'ETHUSDT'].entries()) {
    const list: Bar[] = [];
    let p = k ? 3000 : 60000;
    for (let i = 0; i < HISTORY_DAYS * 24 * 60 + 200; i++) {
      const open = p;
      p *= Math.exp(Math.sin(i * 0.37 + k) * 0.0008 + Math.cos(i * 0.011) * 0.0003);
      list.push({
        openTime: START - HISTORY_DAYS * DAY + i * MIN,
        open,
        high: Math.max(open, p),
        low: Math.min(open, p),
        close: p,
        volume: 5 + (i % 7),
      });
    }
    bars.set(sym, list);
  }
  const closed = (s: string) => bars.get(s)!.filter((b) => b.openTime + MIN <= clock.now());
  return {
    symbols: () => ['BTCUSDT', 'ETHUSDT'],
    snapshot: (s) => ({
      mid: closed(s).at(-1)!.close,
      bookImbalance: 0.2,
      tradeImbalance5m: -0.1,
      fundingRate: null,
      basisBps: null,
    }),
    recentCandles: (s, _i, count) => closed(s).slice(-count),
  };
}

const noConfig = {} as Config;

describe.each(dbKinds())('forecast ledger on %s', (kind) => {
  const clock = manualClock(START);
  let handle: DbHandle;
  let repository: PredictionRepository;
  let service: ReturnType<typeof createPredictionsService>;
  let app: App;
  const dir = mkdtempSync(join(tmpdir(), 'meridian-ledger-'));

  /** Every entry, paged through the endpoint with its cursor. */
  async function exportLedger(limit: number, query = ''): Promise<PublicLedgerEntry[]> {
    const entries: PublicLedgerEntry[] = [];
    let url = `/api/predictions/ledger?limit=${limit}${query}`;
    for (;;) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      const page = res.json() as { data: PublicLedgerEntry[]; nextCursor: string | null };
      entries.push(...page.data);
      if (!page.nextCursor) return entries;
      url = `/api/predictions/ledger?limit=${limit}&cursor=${page.nextCursor}`;
    }
  }

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    repository = createKyselyPredictionRepository(tablesOf(handle.db), { now: () => clock.now() });
    service = createPredictionsService({
      market: fakeMarket(clock),
      repository,
      clock,
      refreshMs: MIN,
      candleHistory: LIVE_HISTORY_DAYS * 24 * 60,
    });
    // Fitted at every horizon first: before its first fit a model's forecasts are not published.
    service.warmUp();
    for (let i = 0; i < REFRESHES; i++) {
      await service.refresh();
      clock.advance(MIN);
    }
    app = await predictionsRouteApp(service);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each refresh appends its datapoints as it stores them; every predictions answer names the head', async () => {
    const head = await repository.ledgerHead();
    expect(head.sequence).toBe(REFRESHES * 6);
    const rows = await repository.since(0);
    expect(rows.length).toBe(REFRESHES * 6);
    const value = `${head.sequence}:${head.hash}`;
    for (const url of [
      '/api/predictions?symbol=BTCUSDT&horizon=15m',
      `/api/predictions?symbol=BTCUSDT&from=${START}`,
      '/api/predictions/ai-outlook',
      '/api/predictions/performance',
      '/api/predictions/ledger?limit=1',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['meridian-ledger-head'], url).toBe(value);
    }
    // Entries are appended before their outcome exists: every live entry was recorded at its datapoint's time.
    const entries = await exportLedger(1000);
    expect(entries.every((e) => e.recordedAtMs === Date.parse(e.generatedAt) && !e.backfilled)).toBe(true);
    expect(entries.some((e) => e.outcome !== null)).toBe(true);
  });

  it('GET /api/predictions/ledger: oldest first, cursor pages up to the head, from/to and symbol filters, problems for bad input', async () => {
    const all = await exportLedger(1000);
    expect(all.map((e) => e.sequence)).toEqual(Array.from({ length: REFRESHES * 6 }, (_, i) => i + 1));
    expect(await exportLedger(50)).toEqual(all);
    const first = await app.inject({ url: '/api/predictions/ledger?limit=50' });
    expect(first.json().data).toHaveLength(50);
    expect(first.json().head).toEqual({ sequence: all.at(-1)!.sequence, hash: all.at(-1)!.hash });

    const from = START + 5 * MIN;
    const to = START + 8 * MIN;
    const span = await exportLedger(1000, `&from=${new Date(from).toISOString()}&to=${to}`);
    expect(span.map((e) => e.recordedAtMs)).toEqual(
      [...Array(18)].map((_, i) => from + Math.floor(i / 6) * MIN),
    );
    const btc = await exportLedger(7, '&symbol=btc');
    expect(btc).toHaveLength(REFRESHES * 3);
    expect(btc.every((e) => e.symbol === 'BTCUSDT')).toBe(true);

    const clamped = await app.inject({ url: '/api/predictions/ledger?limit=5000' });
    expect(clamped.json().data).toHaveLength(REFRESHES * 6);
    expect(clamped.headers['meridian-normalized']).toContain('limit');
    for (const [url, pointer] of [
      ['/api/predictions/ledger?from=2025-02-30', '/query/from'],
      [`/api/predictions/ledger?from=${to}&to=${from}`, '/query/from'],
      ['/api/predictions/ledger?cursor=bm90LWEtY3Vyc29y', '/query/cursor'],
      ['/api/predictions/ledger?limit=0', '/query/limit'],
    ] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(JSON.stringify(res.json()), url).toContain(pointer);
    }
  });

  it('meridian predictions verify on an export file: ok with the head seen earlier; an edited line is named', async () => {
    const entries = await exportLedger(1000);
    const head = (await app.inject({ url: '/api/predictions?symbol=ETHUSDT' })).headers[
      'meridian-ledger-head'
    ] as string;
    const file = join(dir, 'ledger.jsonl');
    writeFileSync(file, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const ok = await runPredictionsCommand(noConfig, ['verify', '--file', file, '--head', head]);
    expect(ok.code).toBe(0);
    expect(ok.out[0]).toBe(`ledger ok: ${REFRESHES * 6} entries from the genesis hash`);
    expect(ok.out[1]).toBe(`head ${head}`);

    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const edited = JSON.parse(lines[36]!) as PublicLedgerEntry;
    edited.payload = edited.payload.replace(/"confidence":[0-9.]+/, '"confidence":0.99');
    lines[36] = JSON.stringify(edited);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const broken = await runPredictionsCommand(noConfig, ['verify', '--file', file]);
    expect(broken.code).toBe(1);
    expect(broken.err[0]).toMatch(
      new RegExp(
        `^ledger broken at entry 37 \\(${edited.symbol} ${edited.horizon} .*\\): hash does not match`,
      ),
    );

    writeFileSync(file, `${lines.slice(0, 10).join('\n')}\nnot json\n`);
    const garbled = await runPredictionsCommand(noConfig, ['verify', '--file', file]);
    expect(garbled).toMatchObject({ code: 1, err: [`${file}:11: not a JSON ledger entry`] });
    const truncated = await runPredictionsCommand(noConfig, ['verify', '--file', join(dir, 'missing.jsonl')]);
    expect(truncated.code).toBe(1);
    expect(truncated.err[0]).toMatch(/cannot read/);
    expect((await runPredictionsCommand(noConfig, ['verify', '--head', 'nope'])).code).toBe(2);
  });

  it('storage refuses UPDATE and DELETE of an entry; a payload edited behind the trigger is named by verify', async () => {
    await expect(
      sql`update prediction_ledger set payload = '{}' where sequence = 5`.execute(handle.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from prediction_ledger where sequence = 5`.execute(handle.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`update prediction_ledger_head set sequence = 1`.execute(handle.db)).rejects.toThrow(
      /only moves forward/,
    );
    expect((await runPredictionsCommand(noConfig, ['verify'], handle)).code).toBe(0);

    const original = (
      await sql<{ payload: string }>`select payload from prediction_ledger where sequence = 29`.execute(
        handle.db,
      )
    ).rows[0]!.payload;
    const tamper = (payload: string) =>
      handle.db.transaction().execute(async (trx) => {
        await sql`alter table prediction_ledger disable trigger prediction_ledger_append_only`.execute(trx);
        await sql`update prediction_ledger set payload = ${payload} where sequence = 29`.execute(trx);
        await sql`alter table prediction_ledger enable trigger prediction_ledger_append_only`.execute(trx);
      });
    await tamper(original.replace(/"prediction":[0-9.e+-]+/, '"prediction":1'));
    const broken = await runPredictionsCommand(noConfig, ['verify'], handle);
    expect(broken.code).toBe(1);
    expect(broken.err[0]).toMatch(/^ledger broken at entry 29 \(\w+ \w+ [^)]+\): hash does not match/);
    await tamper(original);

    // The datapoint itself rewritten in the predictions table: its entry no longer matches it.
    const row = (
      await sql<{ symbol: string; horizon: string; generated_at: string }>`
      select symbol, horizon, generated_at from prediction_ledger where sequence = 40`.execute(handle.db)
    ).rows[0]!;
    await sql`update predictions set confidence = 0.999 where symbol = ${row.symbol} and horizon = ${row.horizon}
      and generated_at = ${Number(row.generated_at)}`.execute(handle.db);
    const json = await runPredictionsCommand(noConfig, ['verify', '--json'], handle);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.err[0]!).problem).toMatchObject({
      sequence: 40,
      reason: expect.stringMatching(/stored datapoint differs/),
    });
  });

  it('a datapoint whose entry cannot be appended is not stored either (one transaction)', async () => {
    const before = (await repository.since(0)).length;
    const head = await repository.ledgerHead();
    // An entry squatting the next sequence makes the append fail.
    await sql`insert into prediction_ledger (sequence, recorded_at, symbol, horizon, generated_at, backfilled, payload, prev_hash, hash)
      values (${head.sequence + 1}, 0, 'X', '15m', 0, false, '{}', ${head.hash}, ${'a'.repeat(64)})`.execute(
      handle.db,
    );
    await expect(service.refresh()).rejects.toThrow();
    expect((await repository.since(0)).length).toBe(before);
    expect(await repository.ledgerHead()).toEqual(head);
    // Only the retention sweep's transaction may delete (it says so in a transaction-local setting).
    await handle.db.transaction().execute(async (trx) => {
      await sql`select set_config('meridian.ledger_retention', 'on', true)`.execute(trx);
      await sql`delete from prediction_ledger where sequence = ${head.sequence + 1}`.execute(trx);
    });
  });

  it('retention removes a prefix of the chain only; what remains verifies from its first entry', async () => {
    const stored = await verifyStoredLedger(repository);
    expect(stored.problem?.sequence).toBe(40); // the datapoint rewritten above
    const keepOnlyPredictions90Days = {
      retainPredictionsDays: 90,
      retainCandles1mDays: 0,
      retainFundingDays: 0,
      retainOpenInterestDays: 0,
      retainBasisDays: 0,
      retainLiquidationsDays: 0,
      retainFlowsDays: 0,
      auditRetentionDays: 0,
    } as Config;
    await pruneOldData(tablesOf<unknown>(handle.db), keepOnlyPredictions90Days, START + 90 * DAY + 10 * MIN);
    const first = (
      await sql<{ sequence: string }>`select min(sequence) as sequence from prediction_ledger`.execute(
        handle.db,
      )
    ).rows[0]!;
    expect(Number(first.sequence)).toBe(61);
    const after = await verifyStoredLedger(repository);
    expect(after).toMatchObject({ ok: true, firstSequence: 61 });
    expect(after.anchor).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('forecast ledger of the backfill', () => {
  it('backfilled datapoints are appended marked backfilled, recorded when stored; live ones follow on the same chain', async () => {
    const clock = manualClock(START);
    const repository = createMemoryPredictionRepository({ now: () => clock.now() });
    const service = createPredictionsService({
      market: fakeMarket(clock),
      repository,
      clock,
      refreshMs: MIN,
      candleHistory: HISTORY_DAYS * 24 * 60,
    });
    const count = await service.warmUpAndBackfill();
    expect(count).toBeGreaterThan(0);
    expect(repository.entries).toHaveLength(count);
    for (const e of repository.entries) {
      expect(e.backfilled).toBe(true);
      expect(JSON.parse(e.payload).backfilled).toBe(true);
      expect(e.recorded_at).toBe(START);
      expect(e.generated_at).toBeLessThanOrEqual(START);
    }
    expect(service.ledgerHead()).toEqual(await repository.ledgerHead());
    clock.advance(MIN);
    await service.refresh();
    const live = repository.entries.slice(count);
    expect(live).toHaveLength(6);
    expect(live.every((e) => !e.backfilled && e.recorded_at === START + MIN)).toBe(true);
    expect(service.ledgerHead().sequence).toBe(count + 6);
    expect(await verifyStoredLedger(repository)).toMatchObject({ ok: true, entries: count + 6 });
  }, 60_000);
});
