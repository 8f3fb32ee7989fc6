import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import * as rollupMigration from '../../src/adapters/db/migrations/0027_netflow_rollup.ts';
import {
  type Flow,
  type OnchainRepository,
  type OnchainTables,
  createAddressBook,
  createKyselyOnchainRepository,
  createOnchainService,
} from '../../src/modules/onchain/index.ts';
import type { IndexedBlock } from '../../src/modules/onchain/repository.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
/** One block every 20 minutes: three per hour. */
const blockTime = (n: number) => T0 + n * 1_200_000;
const blocks = (from: number, to: number): IndexedBlock[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    number: from + i,
    hash: `0xb${from + i}`,
    parentHash: `0xb${from + i - 1}`,
    timestampMs: blockTime(from + i),
  }));

function flow(n: number, block: number, over: Partial<Flow>): Flow {
  return {
    chain: 'ethereum',
    txHash: `0xt${n}`,
    txIndex: 0,
    logIndex: 0,
    blockNumber: block,
    blockHash: `0xb${block}`,
    timeMs: blockTime(block),
    exchange: 'binance',
    direction: 'deposit',
    asset: 'USDT',
    tokenAddress: null,
    amount: '1',
    amountRaw: '1000000',
    decimals: 6,
    usdValue: 1,
    from: { address: '0x1', exchange: null, tag: null },
    to: { address: '0x2', exchange: 'binance', tag: null },
    labelVersion: 'v',
    ...over,
  };
}

/** A mix over 12 blocks (4 hours): two exchanges, two assets, both directions, internal moves, unpriced flows. */
const flows: Flow[] = Array.from({ length: 60 }, (_, i) => {
  const block = i % 12;
  const direction = (['deposit', 'withdrawal', 'internal'] as const)[i % 3] as Flow['direction'];
  return flow(i, block, {
    exchange: i % 4 < 2 ? 'binance' : 'kraken',
    asset: i % 5 < 3 ? 'USDT' : 'ETH',
    direction,
    amount: `${i}.${(i * 37) % 1000}`,
    usdValue: i % 7 === 0 ? null : i * 1.1 + 0.01,
  });
});

type Row = Record<string, string>;

/** The rollup as stored, every value as text. */
async function stored(db: DbHandle['db']): Promise<Row[]> {
  const { rows } = await sql<Row>`select chain, exchange, asset, hour::text, inflow::text, outflow::text,
      inflow_usd::text, outflow_usd::text, flows::text, unpriced::text
    from onchain_netflow_hourly order by exchange, asset, hour, chain`.execute(db);
  return rows;
}

/** The rollup computed afresh from the flows stored now. */
async function recomputed(db: DbHandle['db']): Promise<Row[]> {
  const { rows } =
    await sql<Row>`select chain, exchange, asset, ((block_time / 3600000) * 3600000)::text as hour,
      sum(case when direction = 'deposit' then amount else 0 end)::text as inflow,
      sum(case when direction = 'withdrawal' then amount else 0 end)::text as outflow,
      sum(case when direction = 'deposit' then coalesce(usd_value::numeric, 0) else 0 end)::text as inflow_usd,
      sum(case when direction = 'withdrawal' then coalesce(usd_value::numeric, 0) else 0 end)::text as outflow_usd,
      count(*)::text as flows, (count(*) - count(usd_value))::text as unpriced
    from onchain_flows where direction <> 'internal' group by 1, 2, 3, 4 order by 2, 3, 4, 1`.execute(db);
  return rows;
}

/** Numeric text compares by value: `3.50` and `3.5` are the same sum. */
const normalized = (rows: Row[]) =>
  rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v])),
  );

describe.each(dbKinds())('netflow rollup on %s', (kind) => {
  let handle: DbHandle;
  let repo: OnchainRepository;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    repo = createKyselyOnchainRepository(tablesOf<OnchainTables>(handle.db));
    await repo.commit('ethereum', blocks(0, 11), flows, T0, undefined);
  });
  afterAll(() => handle.close());

  it('sums what the indexer commits, per chain, exchange, asset and hour, leaving internal moves out', async () => {
    const rows = await stored(handle.db);
    expect(normalized(rows)).toEqual(normalized(await recomputed(handle.db)));
    expect(rows.length).toBeGreaterThan(4);
    // Two exchanges × two assets × four hours at most; the one series the service reads matches by hand.
    const service = createOnchainService({
      repo,
      book: createAddressBook([]),
      clock: { now: () => T0 + 4 * H },
      chains: [{ name: 'ethereum', source: 'simulated', staleMs: H }],
    });
    const page = await service.netflow({
      exchange: 'binance',
      asset: 'usdt',
      interval: '1h',
      from: String(T0),
      to: String(T0 + 4 * H),
    });
    const expected = [0, 1, 2, 3].map((hour) => {
      const inHour = flows.filter(
        (f) =>
          f.exchange === 'binance' &&
          f.asset === 'USDT' &&
          f.direction !== 'internal' &&
          Math.floor((f.timeMs - T0) / H) === hour,
      );
      const usd = (d: string) =>
        inHour.filter((f) => f.direction === d).reduce((s, f) => s + (f.usdValue ?? 0), 0);
      return {
        flows: inHour.length,
        netflowUsd: Math.round((usd('deposit') - usd('withdrawal')) * 100) / 100,
      };
    });
    expect(page.data.map((b) => ({ flows: b.flows, netflowUsd: b.netflowUsd }))).toEqual(expected);
  });

  it('follows a reorg rewind: the removed blocks leave the sums, emptied hours leave the table', async () => {
    await repo.rewind('ethereum', 5, T0, undefined);
    const rows = await stored(handle.db);
    expect(normalized(rows)).toEqual(normalized(await recomputed(handle.db)));
    expect(Math.max(...rows.map((r) => Number(r.hour)))).toBe(T0 + H); // blocks 0–5: hours 0 and 1
  });

  it('follows deletions by retention and any direct repair of stored flows', async () => {
    await sql`delete from onchain_flows where block_time < ${T0 + H}`.execute(handle.db);
    expect(normalized(await stored(handle.db))).toEqual(normalized(await recomputed(handle.db)));
    await sql`update onchain_flows set usd_value = null where tx_hash = ${'0xt4'}`.execute(handle.db);
    await sql`update onchain_flows set amount = amount * 2, exchange = 'okx' where tx_hash = ${'0xt16'}`.execute(
      handle.db,
    );
    const rows = await stored(handle.db);
    expect(normalized(rows)).toEqual(normalized(await recomputed(handle.db)));
    expect(rows.some((r) => r.exchange === 'okx')).toBe(true);
  });

  it('is filled from the flows already stored when the migration runs', async () => {
    await repo.commit('ethereum', blocks(6, 11), flows.slice(20), T0, undefined);
    const before = await stored(handle.db);
    await rollupMigration.down(handle.db as unknown as Kysely<unknown>);
    await rollupMigration.up(handle.db as unknown as Kysely<unknown>);
    expect(normalized(await stored(handle.db))).toEqual(normalized(before));
    expect(normalized(before)).toEqual(normalized(await recomputed(handle.db)));
  });
});
