import { formatUnits } from 'viem/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type Flow,
  type OnchainRepository,
  type OnchainTables,
  createKyselyOnchainRepository,
  createMemoryOnchainRepository,
  flowId,
} from '../../src/modules/onchain/index.ts';
import type { IndexedBlock } from '../../src/modules/onchain/repository.ts';
import { type LeaderTerm, StaleLeaderError } from '../../src/shared/leadership.ts';
import { openTestDatabase, repositoryKinds } from '../harness/db.ts';
import { believedTerm, holdLease } from '../harness/leases.ts';

const T0 = Date.UTC(2026, 0, 1);
const AT = T0 + 3_600_000;

const hash = (chain: string, n: number, fork = '') => `0x${chain}${fork}${n.toString(16).padStart(8, '0')}`;
const blocks = (chain: string, from: number, to: number, fork = ''): IndexedBlock[] =>
  Array.from({ length: to - from + 1 }, (_, i) => {
    const n = from + i;
    return {
      number: n,
      hash: hash(chain, n, fork),
      parentHash: hash(chain, n - 1, fork),
      timestampMs: T0 + n * 12_000,
    };
  });

let seq = 0;
function flow(chain: string, block: number, over: Partial<Flow> = {}): Flow {
  const raw = over.amountRaw ?? String(1_000_000n + BigInt(seq));
  const decimals = over.decimals ?? 6;
  return {
    chain,
    txHash: `0xtx${chain}${(++seq).toString(16).padStart(6, '0')}`,
    txIndex: 0,
    logIndex: 0,
    blockNumber: block,
    blockHash: hash(chain, block),
    timeMs: T0 + block * 12_000,
    exchange: 'binance',
    direction: 'deposit',
    asset: 'USDT',
    tokenAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7',
    amount: formatUnits(BigInt(raw), decimals),
    amountRaw: raw,
    decimals,
    usdValue: 1,
    from: { address: '0x00000000000000000000000000000000000a11ce', exchange: null, tag: null },
    to: { address: '0x28c6c06298d514db089934071355e5743bf21d60', exchange: 'binance', tag: 'Binance 14' },
    labelVersion: 'test-labels',
    ...over,
  };
}

/**
 * The on-chain store's contract, on its in-memory twin and on every database backend. One store per kind;
 * each test uses its own chain name (and, for the chain-agnostic queries list/totals, its own exchange or
 * asset), so they share it safely.
 */
describe.each(repositoryKinds())('on-chain repository on %s', (kind) => {
  let handle: DbHandle | undefined;
  let repo: OnchainRepository;
  const database = () => {
    if (!handle) throw new Error('this case needs a database');
    return handle.db;
  };

  beforeAll(async () => {
    if (kind === 'memory') {
      repo = createMemoryOnchainRepository();
      return;
    }
    handle = await openTestDatabase(kind);
    repo = createKyselyOnchainRepository(tablesOf<OnchainTables>(handle.db));
  });
  afterAll(() => handle?.close());

  it('refuses commit, rewind and prune once the term knows it lost, changing nothing', async () => {
    const job = `onchain-lost-${kind}`;
    // A database write also checks the lease row that a won campaign writes; the twin has only the term.
    if (handle) await holdLease(handle.db, job, 3);
    let leading = true;
    const term: LeaderTerm = { job, term: 3, current: () => leading };
    const f = flow('lt', 51, { asset: 'LOST' });
    expect(await repo.commit('lt', blocks('lt', 50, 52), [f], AT, term)).toEqual([f]);
    leading = false;
    const g = flow('lt', 53, { asset: 'LOST' });
    await expect(repo.commit('lt', blocks('lt', 53, 53), [g], AT, term)).rejects.toThrow(StaleLeaderError);
    await expect(repo.rewind('lt', 50, AT + 1, term)).rejects.toThrow(StaleLeaderError);
    await expect(repo.pruneBlocks('lt', 52, term)).rejects.toThrow(StaleLeaderError);
    expect(await repo.checkpoint('lt')).toEqual({ blockNumber: 52, blockHash: hash('lt', 52) });
    expect(await repo.blockHash('lt', 53)).toBeUndefined();
    expect(await repo.lowestBlock('lt')).toBe(50);
    expect(await repo.list({ asset: 'LOST', limit: 10 })).toEqual([f]);
  });

  // Only the database knows a term is stale while its holder still believes it leads (the leases table), so
  // this case exists for the database kinds only (the twin's fencing has its own case with a fake term).
  if (kind !== 'memory')
    it('refuses commit, rewind and prune from a stale leadership term, changing nothing', async () => {
      const job = `onchain-indexer-${kind}`;
      await holdLease(database(), job, 8);
      const stale = believedTerm(job, 7);
      const current = believedTerm(job, 8);
      const f = flow('cf', 21);
      await expect(repo.commit('cf', blocks('cf', 20, 22), [f], AT, stale)).rejects.toThrow(StaleLeaderError);
      expect(await repo.checkpoint('cf')).toBeUndefined();
      expect(await repo.lowestBlock('cf')).toBeUndefined();
      expect(await repo.list({ exchange: 'binance', asset: f.asset, limit: 1000 })).not.toContainEqual(f);
      expect(await repo.commit('cf', blocks('cf', 20, 22), [f], AT, current)).toEqual([f]);
      await expect(repo.rewind('cf', 20, AT + 1, stale)).rejects.toThrow(StaleLeaderError);
      await expect(repo.pruneBlocks('cf', 22, stale)).rejects.toThrow(StaleLeaderError);
      expect(await repo.checkpoint('cf')).toEqual({ blockNumber: 22, blockHash: hash('cf', 22) });
      expect(await repo.lowestBlock('cf')).toBe(20);
      expect(
        (await repo.list({ exchange: 'binance', asset: f.asset, limit: 1000 })).map((x) => x.txHash),
      ).toContain(f.txHash);
    });

  it('commits blocks, flows and the checkpoint; reads every field back with its type', async () => {
    expect(await repo.checkpoint('c1')).toBeUndefined();
    expect(await repo.lowestBlock('c1')).toBeUndefined();
    const native = flow('c1', 101, {
      asset: 'NATIVE1',
      tokenAddress: null,
      logIndex: -1,
      txIndex: 3,
      decimals: 18,
      // 2^80 + 1 wei: far beyond a double and beyond int8; NUMERIC must keep every digit.
      amountRaw: '1208925819614629174706177',
      amount: formatUnits(1208925819614629174706177n, 18),
      usdValue: 1234567.89,
      exchange: 'kraken',
      direction: 'withdrawal',
      from: { address: '0x2910543af39aba0cd09dbb2d50200b3e800a63d2', exchange: 'kraken', tag: null },
      to: { address: '0x00000000000000000000000000000000000a11ce', exchange: null, tag: null },
    });
    const token = flow('c1', 102, { asset: 'TOKEN1', usdValue: null, amountRaw: '1', decimals: 6 });
    const fresh = await repo.commit('c1', blocks('c1', 100, 102), [native, token], AT);
    expect(fresh).toEqual([native, token]);
    expect(await repo.checkpoint('c1')).toEqual({ blockNumber: 102, blockHash: hash('c1', 102) });
    expect(await repo.lowestBlock('c1')).toBe(100);
    expect(await repo.blockHash('c1', 101)).toBe(hash('c1', 101));
    expect(await repo.blockHash('c1', 99)).toBeUndefined();
    expect(await repo.indexedThrough('c1')).toEqual({ blockNumber: 102, blockTime: T0 + 102 * 12_000 });

    const [n] = await repo.list({ asset: 'NATIVE1', limit: 10 });
    expect(n).toEqual(native);
    expect(n?.amount).toBe('1208925.819614629174706177');
    expect(typeof n?.blockNumber).toBe('number');
    expect(typeof n?.timeMs).toBe('number');
    expect(typeof n?.usdValue).toBe('number');
    const [t] = await repo.list({ asset: 'TOKEN1', limit: 10 });
    expect(t).toEqual(token);
    expect(t?.amount).toBe('0.000001');
    expect(t?.usdValue).toBeNull();

    // What was given and what was read are copies: changing them changes nothing stored.
    native.to.tag = 'changed after commit';
    if (n) n.from.address = '0xchanged';
    expect((await repo.list({ asset: 'NATIVE1', limit: 10 }))[0]?.to).toEqual({
      address: '0x00000000000000000000000000000000000a11ce',
      exchange: null,
      tag: null,
    });
    expect((await repo.list({ asset: 'NATIVE1', limit: 10 }))[0]?.from.address).toBe(
      '0x2910543af39aba0cd09dbb2d50200b3e800a63d2',
    );
  });

  it('a commit without blocks writes nothing, not even its flows; indexedThrough needs the retained block', async () => {
    const orphan = flow('c8', 81, { asset: 'NOBLK8' });
    expect(await repo.commit('c8', [], [orphan], AT)).toEqual([]);
    expect(await repo.list({ asset: 'NOBLK8', limit: 10 })).toEqual([]);
    expect(await repo.checkpoint('c8')).toBeUndefined();
    expect(await repo.indexedThrough('c8')).toBeUndefined();
    // The checkpoint is the last block given; once its block is pruned, indexedThrough no longer answers.
    await repo.commit('c8', blocks('c8', 80, 82), [orphan], AT);
    expect(await repo.indexedThrough('c8')).toEqual({ blockNumber: 82, blockTime: T0 + 82 * 12_000 });
    await repo.pruneBlocks('c8', 83);
    expect(await repo.lowestBlock('c8')).toBeUndefined();
    expect(await repo.indexedThrough('c8')).toBeUndefined();
    expect(await repo.checkpoint('c8')).toEqual({ blockNumber: 82, blockHash: hash('c8', 82) });
    expect(await repo.list({ asset: 'NOBLK8', limit: 10 })).toEqual([orphan]);
  });

  it('a flow committed twice is stored once and reported as new only the first time', async () => {
    const a = flow('c2', 11, { asset: 'DUP2' });
    const b = flow('c2', 12, { asset: 'DUP2' });
    expect(await repo.commit('c2', blocks('c2', 10, 12), [a, b], AT)).toEqual([a, b]);
    const c = flow('c2', 13, { asset: 'DUP2' });
    // Re-indexing an overlap (restored checkpoint): the known flows are left alone, the new one returned.
    expect(await repo.commit('c2', blocks('c2', 11, 13), [a, b, c], AT)).toEqual([c]);
    expect(await repo.list({ asset: 'DUP2', limit: 10 })).toEqual([c, b, a]);
    // The same transfer seen from the other exchange's side is a second row, not a duplicate.
    const other = { ...a, exchange: 'okx', direction: 'withdrawal' as const };
    expect(await repo.commit('c2', blocks('c2', 13, 13), [other], AT)).toEqual([other]);
    expect(await repo.list({ asset: 'DUP2', limit: 10 })).toHaveLength(4);
    // The same flow twice in one commit (overlapping log batches) is stored and reported once.
    const twice = flow('c2', 13, { asset: 'DUP2' });
    expect(await repo.commit('c2', blocks('c2', 13, 13), [twice, twice], AT)).toEqual([twice]);
    expect(await repo.list({ asset: 'DUP2', limit: 10 })).toHaveLength(5);
    // A block re-committed with another hash (a reorg the indexer already rewound) replaces the old one.
    await repo.commit('c2', blocks('c2', 13, 13, 'f'), [], AT);
    expect(await repo.blockHash('c2', 13)).toBe(hash('c2', 13, 'f'));
    expect(await repo.checkpoint('c2')).toEqual({ blockNumber: 13, blockHash: hash('c2', 13, 'f') });
  });

  it('commit is atomic: a failing batch leaves no block, flow or checkpoint behind', async () => {
    await repo.commit('c3', blocks('c3', 1, 1), [], AT);
    const ok = flow('c3', 2, { asset: 'ATOM3' });
    // Rejected by the database (NUMERIC) after the blocks and the first flow were written in the transaction.
    const bad = { ...flow('c3', 3, { asset: 'ATOM3' }), amountRaw: 'not a number' };
    await expect(repo.commit('c3', blocks('c3', 2, 3), [ok, bad], AT)).rejects.toMatchObject({
      code: '22P02',
    });
    // Beyond the integer column: the value is refused the same way.
    const wide = { ...flow('c3', 3, { asset: 'ATOM3' }), logIndex: 2 ** 31 };
    await expect(repo.commit('c3', blocks('c3', 2, 3), [ok, wide], AT)).rejects.toMatchObject({
      code: '22003',
    });
    expect(await repo.checkpoint('c3')).toEqual({ blockNumber: 1, blockHash: hash('c3', 1) });
    expect(await repo.blockHash('c3', 2)).toBeUndefined();
    expect(await repo.list({ asset: 'ATOM3', limit: 10 })).toEqual([]);
    // The pool/connection is still usable afterwards.
    expect(await repo.commit('c3', blocks('c3', 2, 2), [ok], AT)).toEqual([ok]);
  });

  it('two writers committing overlapping blocks at once (a failover overlap) report each flow new exactly once', async () => {
    // On PostgreSQL these run as concurrent transactions on two pooled connections: the second insert of a
    // key waits for the first transaction, then does nothing. On PGlite they are serialized.
    const shared = [41, 42, 43].map((n) => flow('c7', n, { asset: 'RACE7' }));
    const onlyA = flow('c7', 41, { asset: 'RACE7' });
    const onlyB = flow('c7', 44, { asset: 'RACE7' });
    const [a, b] = await Promise.all([
      repo.commit('c7', blocks('c7', 40, 43), [...shared, onlyA], AT),
      repo.commit('c7', blocks('c7', 41, 44), [onlyB, ...[...shared].reverse()], AT),
    ]);
    const reported = [...a, ...b].map((f) => f.txHash).sort();
    expect(reported).toEqual([...shared, onlyA, onlyB].map((f) => f.txHash).sort());
    expect(await repo.list({ asset: 'RACE7', limit: 100 })).toHaveLength(5);
    expect((await repo.checkpoint('c7'))?.blockNumber).toBeOneOf([43, 44]);
  });

  it('rewind removes flows and blocks above the ancestor and moves the checkpoint; prune keeps flows', async () => {
    const flows = [5, 6, 7, 8].map((n) => flow('c4', n, { asset: 'RW4' }));
    await repo.commit('c4', blocks('c4', 4, 8), flows, AT);
    expect(await repo.rewind('c4', 6, AT + 1)).toEqual({
      removedFlows: 2,
      removedIds: expect.arrayContaining(flows.slice(2).map(flowId)),
    });
    expect(await repo.checkpoint('c4')).toEqual({ blockNumber: 6, blockHash: hash('c4', 6) });
    expect(await repo.blockHash('c4', 7)).toBeUndefined();
    expect((await repo.list({ asset: 'RW4', limit: 10 })).map((f) => f.blockNumber)).toEqual([6, 5]);
    // Deeper than the retained window: the checkpoint hash is unknown (empty).
    await repo.pruneBlocks('c4', 6);
    expect(await repo.lowestBlock('c4')).toBe(6);
    expect(await repo.list({ asset: 'RW4', limit: 10 })).toHaveLength(2);
    expect(await repo.rewind('c4', 3, AT + 2)).toEqual({
      removedFlows: 2,
      removedIds: expect.arrayContaining(flows.slice(0, 2).map(flowId)),
    });
    expect(await repo.checkpoint('c4')).toEqual({ blockNumber: 3, blockHash: '' });
    expect(await repo.lowestBlock('c4')).toBeUndefined();
    // Rewinding one chain never touches another.
    expect(await repo.checkpoint('c1')).toMatchObject({ blockNumber: 102 });
    // A chain never committed gets a checkpoint at the ancestor, with an unknown hash.
    expect(await repo.rewind('c4-new', 5, AT + 3)).toEqual({ removedFlows: 0, removedIds: [] });
    expect(await repo.checkpoint('c4-new')).toEqual({ blockNumber: 5, blockHash: '' });
  });

  it('lists newest first with filters and a stable keyset cursor across every tie-breaker', async () => {
    const all: Flow[] = [];
    for (const block of [20, 21]) {
      for (const txIndex of [0, 1]) {
        for (const logIndex of [-1, 0, 2]) {
          for (const exchange of ['binance', 'okx']) {
            all.push(
              flow('c5', block, {
                asset: 'PAGE5',
                txHash: `0xpage${block}${txIndex}${logIndex}`,
                txIndex,
                logIndex,
                exchange,
                direction: exchange === 'okx' ? 'withdrawal' : 'deposit',
                usdValue: block + txIndex,
              }),
            );
          }
        }
      }
    }
    // Stored in a shuffled order so any order seen comes from ORDER BY.
    const shuffled = [...all]
      .sort((x, y) => (x.txHash + x.exchange < y.txHash + y.exchange ? 1 : -1))
      .reverse();
    await repo.commit('c5', blocks('c5', 20, 21), shuffled, AT);
    const newestFirst = [...all].sort(
      (x, y) =>
        y.blockNumber - x.blockNumber ||
        y.txIndex - x.txIndex ||
        y.logIndex - x.logIndex ||
        (y.exchange < x.exchange ? -1 : y.exchange > x.exchange ? 1 : 0),
    );
    const paged: Flow[] = [];
    let before: Flow | undefined;
    for (;;) {
      const page = await repo.list({
        asset: 'PAGE5',
        limit: 5,
        before: before && {
          blockNumber: before.blockNumber,
          txIndex: before.txIndex,
          logIndex: before.logIndex,
          exchange: before.exchange,
        },
      });
      paged.push(...page);
      if (page.length < 5) break;
      before = page.at(-1);
    }
    expect(paged).toEqual(newestFirst);
    expect(await repo.list({ asset: 'PAGE5', exchange: 'okx', direction: 'withdrawal', limit: 100 })).toEqual(
      newestFirst.filter((f) => f.exchange === 'okx'),
    );
    expect(await repo.list({ asset: 'PAGE5', direction: 'internal', limit: 100 })).toEqual([]);
    expect(await repo.list({ asset: 'PAGE5', minUsd: 21, limit: 100 })).toEqual(
      newestFirst.filter((f) => (f.usdValue as number) >= 21),
    );
  });

  it('totals sums USD in and out since a time, per exchange and asset, as numbers rounded to cents', async () => {
    const rows = [
      flow('c6', 30, { asset: 'SUM6', exchange: 'x6', direction: 'deposit', usdValue: 0.1 }),
      flow('c6', 30, { asset: 'SUM6', exchange: 'x6', direction: 'deposit', usdValue: 0.2 }),
      flow('c6', 31, { asset: 'SUM6', exchange: 'x6', direction: 'withdrawal', usdValue: 1000.005 }),
      flow('c6', 31, { asset: 'SUM6', exchange: 'x6', direction: 'internal', usdValue: 99 }),
      flow('c6', 31, { asset: 'SUM6', exchange: 'x6', direction: 'deposit', usdValue: null }),
      flow('c6', 32, { asset: 'SUM6', exchange: 'y6', direction: 'deposit', usdValue: 5 }),
    ];
    await repo.commit('c6', blocks('c6', 30, 32), rows, AT);
    expect(await repo.totals({ exchange: 'x6', sinceMs: 0 })).toEqual({
      inflowUsd: 0.3,
      outflowUsd: 1000.01,
    });
    expect(await repo.totals({ asset: 'SUM6', sinceMs: 0 })).toEqual({ inflowUsd: 5.3, outflowUsd: 1000.01 });
    expect(await repo.totals({ asset: 'SUM6', sinceMs: T0 + 31 * 12_000 })).toEqual({
      inflowUsd: 5,
      outflowUsd: 1000.01,
    });
    expect(await repo.totals({ exchange: 'nobody', sinceMs: 0 })).toEqual({ inflowUsd: 0, outflowUsd: 0 });
    // A flow without a USD value is neither summed nor above any minimum.
    expect(await repo.list({ asset: 'SUM6', minUsd: 0, limit: 100 })).toHaveLength(5);
  });
});
