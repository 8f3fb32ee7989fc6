import { resolve } from 'node:path';
import { sql } from 'kysely';
import {
  type Hex,
  type PublicClient,
  type WalletClient,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseAbi,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDataPresent } from '../harness/shared-data.ts';
import { createEvmChainSource } from '../../src/adapters/chain/evm/evm-source.ts';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type ChainSource,
  type FlowView,
  type Indexer,
  type OnchainTables,
  createIndexer,
  createKyselyOnchainRepository,
} from '../../src/modules/onchain/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';
import { type Anvil, anvilBinary, startAnvil } from './fixtures/anvil.ts';
import { erc20CreationCode } from './fixtures/erc20.ts';

const LABELS = resolve(process.cwd(), '../shared/data/labels/ethereum');
const haveLabels = sharedDataPresent('the anvil on-chain suite', LABELS);
const haveAnvil = anvilBinary() !== undefined;
// In CI (MERIDIAN_REQUIRE_SERVICES=1) the local Ethereum node is mandatory: the binary ships with the dev
// dependencies, so its absence is a broken install, not an environment without the service.
if (!haveAnvil && process.env.MERIDIAN_REQUIRE_SERVICES === '1')
  throw new Error(
    'the anvil on-chain suite is required but the anvil binary is not installed (scripts/ensure-tools.mjs)',
  );
if (!haveAnvil)
  console.warn(
    'skipping the anvil on-chain suite: the anvil binary is not installed (scripts/ensure-tools.mjs)',
  );

// Exchange addresses of the bundled label set (src/modules/onchain/default-labels.json)
const BINANCE_14 = '0x28c6c06298d514db089934071355e5743bf21d60';
const BINANCE_15 = '0x21a31ee1afc51d94c2efccaa2092ad1028285549';
const COINBASE_1 = '0x71660c4005ba85c37ccec55d0c4493e66fe775d3';
const KRAKEN = '0x2910543af39aba0cd09dbb2d50200b3e800a63d2';
const OKX = '0x6cc5f688a315f3dc28a7781717a9a798a59fda7b';
const KRAKEN_13 = '0xda9dfa130df4de4673b89022ee50ff26f6ea73cf';
const USER = '0x00000000000000000000000000000000000a11ce';
const STRANGER = '0x0000000000000000000000000000000000000b0b';

const abi = parseAbi(['function transfer(address,uint256) returns (bool)']);

// On every backend: the indexer's transactions, reorg rewinds and keyset pages are storage behaviour. Each
// backend gets its own anvil node and app (the tests of one block build on each other's chain state).
describe.skipIf(!haveLabels || !haveAnvil).each(dbKinds())(
  'EVM indexer against a real anvil node on %s',
  (kind) => {
    let anvil: Anvil;
    let t: TestApp;
    let viewer: TestUser;
    let token: Hex;
    let deployer: Hex;
    const published: FlowView[] = [];
    let wallet: WalletClient;
    let pub: PublicClient;
    let chain: ReturnType<typeof defineChain>;

    async function mined(hash: Hex) {
      const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      expect(receipt.status).toBe('success');
      return receipt;
    }
    async function impersonate(address: string) {
      await anvil.rpc('anvil_impersonateAccount', [address]);
      await anvil.rpc('anvil_setBalance', [address, '0x3635c9adc5dea00000']); // 1000 ETH
    }
    const sendEth = async (from: string, to: string, wei: bigint) =>
      mined(await wallet.sendTransaction({ account: from as Hex, chain, to: to as Hex, value: wei }));
    const sendToken = async (from: string, to: string, raw: bigint) =>
      mined(
        await wallet.writeContract({
          account: from as Hex,
          chain,
          address: token,
          abi,
          functionName: 'transfer',
          args: [to as Hex, raw],
        }),
      );

    async function flows(
      query = '',
    ): Promise<{ status: number; body: Record<string, unknown> & { data: FlowView[] } }> {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/onchain/flows?${query}`,
        headers: viewer.auth,
      });
      if (res.statusCode === 200) {
        // Provenance of every answer: the EVM chain, as of the newest indexed block's own time.
        expect(res.headers['meridian-source']).toBe('evm:ethereum');
        const asOf = res.headers['meridian-as-of'];
        if (asOf !== undefined) expect(Date.parse(asOf as string)).toBeGreaterThan(0);
        else expect(res.headers['meridian-stale']).toBe('true'); // nothing indexed yet
      }
      return { status: res.statusCode, body: res.json() };
    }
    /** Every flow, following cursors page by page (also exercises pagination). */
    async function allFlows(pageSize = 7): Promise<FlowView[]> {
      const out: FlowView[] = [];
      let cursor: string | null = null;
      do {
        const page = await flows(`limit=${pageSize}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        out.push(...page.body.data);
        cursor = page.body.nextCursor as string | null;
      } while (cursor);
      return out;
    }
    async function visibleWithin(ms: number, predicate: (all: FlowView[]) => boolean): Promise<number> {
      const started = Date.now();
      await waitUntil(async () => predicate((await flows('limit=500')).body.data), 'the flows', ms, 25);
      return Date.now() - started;
    }
    const repo = () => createKyselyOnchainRepository(tablesOf<OnchainTables>(t.container.db.db));
    const source = (): ChainSource =>
      createEvmChainSource({ rpcUrl: anvil.url, tokens: [{ symbol: 'USDT', address: token, decimals: 6 }] });
    const ethAt2000 = { usdPrice: async (asset: string) => (asset === 'ETH' ? 2000 : null) };
    const newIndexer = (src: ChainSource = source()): Indexer =>
      createIndexer({
        source: src,
        repo: repo(),
        book: t.container.onchain.book,
        prices: ethAt2000,
        bus: t.container.bus,
        clock: t.container.clock,
        confirmations: 0,
        pollMs: 50,
        backoffMinMs: 20,
        backoffMaxMs: 200,
      });

    beforeAll(async () => {
      anvil = await startAnvil();
      chain = defineChain({
        id: 31337,
        name: 'anvil',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [anvil.url] } },
      });
      pub = createPublicClient({ chain, transport: http(anvil.url) }) as unknown as PublicClient;
      wallet = createWalletClient({ chain, transport: http(anvil.url) });
      [deployer] = (await anvil.rpc<Hex[]>('eth_accounts')) as [Hex];
      const receipt = await mined(
        await wallet.deployContract({
          account: deployer,
          chain,
          abi: [],
          bytecode: erc20CreationCode(10n ** 15n, 6),
        }),
      );
      token = receipt.contractAddress as Hex;
      t = await createTestApp({
        db: kind,
        env: {
          MERIDIAN_CHAIN_SOURCE: `evm:${anvil.url}`,
          MERIDIAN_LABELS_PATH: LABELS,
          MERIDIAN_CHAIN_CONFIRMATIONS: '0',
          MERIDIAN_CHAIN_TOKENS: `USDT:${token}:6`,
          MERIDIAN_CHAIN_POLL_MS: '50',
          MERIDIAN_CHAIN_BACKFILL_BLOCKS: '0',
        },
      });
      viewer = await t.user('viewer');
      await t.container.bus.subscribe(topics.onchainFlow, (flow) => published.push(flow));
      for (const address of [KRAKEN, OKX, BINANCE_14]) await impersonate(address);
    }, 60_000);

    afterAll(async () => {
      await t?.container.onchain.job.stop();
      await t?.close();
      await anvil?.stop();
    });

    it('shows native and token deposits/withdrawals of labelled wallets within 2 s, exact amounts, correct direction', async () => {
      expect(t.container.onchain.book.problems).toEqual([]);
      expect(t.container.onchain.book.size).toBeGreaterThanOrEqual(126);
      await t.container.onchain.job.start(); // the container's own background job

      const cases: Array<{
        send: () => Promise<{ transactionHash: Hex }>;
        expect: Array<Partial<FlowView>>;
      }> = [
        {
          send: () => sendEth(deployer, BINANCE_14, 1_234_567_890_123_456_789n),
          expect: [
            {
              exchange: 'binance',
              direction: 'deposit',
              asset: 'ETH',
              amount: '1.234567890123456789',
              kind: 'native',
            },
          ],
        },
        {
          send: () => sendToken(deployer, COINBASE_1, 1_234_567_891n),
          expect: [
            {
              exchange: 'coinbase',
              direction: 'deposit',
              asset: 'USDT',
              amount: '1234.567891',
              usdValue: 1234.57,
            },
          ],
        },
        {
          send: () => sendEth(KRAKEN, USER, 500_000_000_000_000_000n),
          expect: [
            { exchange: 'kraken', direction: 'withdrawal', asset: 'ETH', amount: '0.5', logIndex: null },
          ],
        },
        {
          send: () => sendToken(deployer, OKX, 77_000_000n),
          expect: [{ exchange: 'okx', direction: 'deposit', amount: '77' }],
        },
        {
          send: () => sendToken(OKX, USER, 76_999_999n),
          expect: [{ exchange: 'okx', direction: 'withdrawal', amount: '76.999999', kind: 'token' }],
        },
        {
          send: () => sendToken(deployer, BINANCE_14, 10_000_000n),
          expect: [{ exchange: 'binance', direction: 'deposit', amount: '10' }],
        },
        {
          send: () => sendToken(BINANCE_14, COINBASE_1, 2_500_000n),
          expect: [
            { exchange: 'coinbase', direction: 'deposit', amount: '2.5' },
            { exchange: 'binance', direction: 'withdrawal', amount: '2.5' },
          ],
        },
        {
          send: () => sendEth(BINANCE_14, BINANCE_15, 10n ** 18n),
          expect: [{ exchange: 'binance', direction: 'internal', amount: '1' }],
        },
      ];
      for (const c of cases) {
        const receipt = await c.send();
        const hash = receipt.transactionHash.toLowerCase();
        const took = await visibleWithin(
          2000,
          (all) => all.filter((f) => f.txHash === hash).length === c.expect.length,
        );
        expect(took).toBeLessThan(2000);
        const mine = (await flows('limit=500')).body.data.filter((f) => f.txHash === hash);
        expect(mine).toEqual(c.expect.map((e) => expect.objectContaining({ ...e, chain: 'ethereum' })));
      }

      // Unlabelled to unlabelled, native and token: never shown.
      const quiet = [
        await sendEth(deployer, STRANGER, 10n ** 17n),
        await sendToken(deployer, STRANGER, 5_000_000n),
      ];
      await sendEth(deployer, KRAKEN_13, 1n); // a later labelled flow proves the indexer went past them
      await visibleWithin(2000, (all) => all.some((f) => f.to.address === KRAKEN_13));
      const all = await allFlows();
      for (const r of quiet)
        expect(all.some((f) => f.txHash === r.transactionHash.toLowerCase())).toBe(false);
      expect(all.every((f) => f.from.exchange !== null || f.to.exchange !== null)).toBe(true);
      // Each stored flow was published on the bus exactly once.
      expect(published.map((f) => f.id).sort()).toEqual(all.map((f) => f.id).sort());
      await t.container.onchain.job.stop();
    });

    it('filters, summarises and validates through the real HTTP route', async () => {
      const okx = await flows('exchange=OKEx&asset=usdt');
      expect(okx.status).toBe(200);
      expect(okx.body.data.map((f) => [f.direction, f.amount])).toEqual([
        ['withdrawal', '76.999999'],
        ['deposit', '77'],
      ]);
      expect(okx.body.summary).toMatchObject({
        exchange: 'okx',
        asset: 'USDT',
        '1h': { inflowUsd: 77, outflowUsd: 77, netflowUsd: 0 },
        '24h': { inflowUsd: 77, outflowUsd: 77, netflowUsd: 0 },
      });
      const deposits = await flows('direction=deposit&minUsd=50');
      expect(deposits.body.data.map((f) => f.exchange).sort()).toEqual(['coinbase', 'okx']);
      expect((await flows('limit=999')).body.applied).toMatchObject({ limit: 500 });

      const unknown = await flows('exchange=mtgox');
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'unknown_exchange' });
      expect(unknown.body.detail).toEqual(expect.stringContaining('binance'));
      expect(unknown.body.known).toEqual(expect.arrayContaining(['binance', 'coinbase', 'kraken', 'okx']));
      for (const bad of [
        'limit=0',
        'limit=1.5',
        'limit=abc',
        'direction=sideways',
        'minUsd=-1',
        'cursor=zzz',
      ]) {
        const res = await flows(bad);
        expect(res.status, bad).toBe(400);
        expect(res.body.code, bad).toBe('validation_failed');
        expect(JSON.stringify(res.body.errors), bad).toContain(`/query/${bad.split('=')[0]}`);
      }
    });

    it('a killed and restarted indexer leaves no gap and no duplicate', async () => {
      let killed = false;
      const base = source();
      const killable: ChainSource = {
        ...base,
        headNumber: () => (killed ? Promise.reject(new Error('killed')) : base.headNumber()),
        blockHash: (n) => (killed ? Promise.reject(new Error('killed')) : base.blockHash(n)),
        block: (n, i) => (killed ? Promise.reject(new Error('killed')) : base.block(n, i)),
      };
      const first = newIndexer(killable);
      first.start();
      const sent: string[] = [];
      const targets = [BINANCE_14, COINBASE_1, KRAKEN, OKX, BINANCE_15];
      for (let i = 0; i < 12; i++) {
        if (i === 6) killed = true; // the node connection dies mid-stream; the process is gone
        const to = targets[i % targets.length] as string;
        const r =
          i % 2
            ? await sendToken(deployer, to, BigInt(1_000_000 + i))
            : await sendEth(deployer, to, BigInt(10 ** 15 + i));
        sent.push(r.transactionHash.toLowerCase());
      }
      // The dead connection is noticed (failed steps, backing off), then the process is gone.
      await expect
        .poll(() => first.status().consecutiveErrors, { timeout: 2000, interval: 10 })
        .toBeGreaterThan(0);
      await first.stop();
      expect(first.status().checkpoint).toBeLessThan(Number(await pub.getBlockNumber({ cacheTime: 0 })));

      // A fresh process: new source, new indexer, same database.
      const second = newIndexer();
      second.start();
      await visibleWithin(3000, (all) => sent.every((h) => all.some((f) => f.txHash === h)));
      const head = Number(await pub.getBlockNumber({ cacheTime: 0 }));
      await expect
        .poll(async () => (await repo().checkpoint('ethereum'))?.blockNumber, { timeout: 2000 })
        .toBe(head);
      await second.stop();

      // Idempotency: pretend the checkpoint lagged behind stored flows (e.g. restored backup) and re-index.
      const db = tablesOf<OnchainTables>(t.container.db.db);
      await db
        .updateTable('onchain_checkpoints')
        .set({ block_number: head - 8, block_hash: '' })
        .execute();
      const third = newIndexer();
      expect((await third.step()).kind).toBe('indexed');
      while ((await third.step()).kind !== 'idle') {}

      const all = await allFlows();
      for (const h of sent) expect(all.filter((f) => f.txHash === h)).toHaveLength(1);
      expect(new Set(all.map((f) => f.id)).size).toBe(all.length);
      const dupes = await sql<{
        n: number;
      }>`select count(*)::int as n from (select 1 from onchain_flows group by chain, tx_hash, log_index, exchange having count(*) > 1) d`.execute(
        t.container.db.db,
      );
      expect(dupes.rows[0]?.n).toBe(0);
      // No gap: every block from the first indexed one to the head has a recorded hash.
      const blocks = await db.selectFrom('onchain_blocks').select('number').orderBy('number').execute();
      const numbers = blocks.map((b) => Number(b.number));
      expect(numbers.at(-1)).toBe(head);
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => (numbers[0] as number) + i));
      // ETH priced at the block time through the price port.
      expect(all.find((f) => f.txHash === sent[0])?.usdValue).toBe(2);
    });

    it('a reorg removes the orphaned flows and shows the replacement chain', async () => {
      const indexer = newIndexer();
      const retracted: string[] = [];
      const unsubscribe = await t.container.bus.subscribe(topics.onchainFlowsRemoved, ({ ids }) =>
        retracted.push(...ids),
      );
      indexer.start();
      try {
        const snapshot = await anvil.rpc<string>('evm_snapshot');
        const orphan = (await sendEth(deployer, BINANCE_15, 2n * 10n ** 18n)).transactionHash.toLowerCase();
        const orphanToken = (
          await sendToken(deployer, COINBASE_1, 42_000_000n)
        ).transactionHash.toLowerCase();
        await visibleWithin(
          2000,
          (all) => all.some((f) => f.txHash === orphan) && all.some((f) => f.txHash === orphanToken),
        );
        const before0 = await allFlows();

        expect(await anvil.rpc('evm_revert', [snapshot])).toBe(true);
        // The replacement chain: same height first (one block), then longer.
        const replacement = (await sendEth(deployer, KRAKEN, 3n * 10n ** 18n)).transactionHash.toLowerCase();
        await visibleWithin(
          2000,
          (all) =>
            all.some((f) => f.txHash === replacement) &&
            !all.some((f) => f.txHash === orphan || f.txHash === orphanToken),
        );
        const more = (await sendToken(deployer, OKX, 5_000_000n)).transactionHash.toLowerCase();
        await visibleWithin(2000, (all) => all.some((f) => f.txHash === more));

        const all = await allFlows();
        expect(all.some((f) => f.txHash === orphan || f.txHash === orphanToken)).toBe(false);
        const r = all.find((f) => f.txHash === replacement);
        expect(r).toMatchObject({ exchange: 'kraken', direction: 'deposit', amount: '3' });
        const canonical = await pub.getBlock({ blockNumber: BigInt(r?.blockNumber ?? 0) });
        expect(r?.blockHash).toBe(canonical.hash.toLowerCase());
        expect(indexer.status().reorgs).toBeGreaterThanOrEqual(1);
        expect(indexer.status().flowsRemovedByReorgs).toBeGreaterThanOrEqual(2);
        // What the reorg removed was announced on the bus by id, for consumers of onchain.flow to retract.
        const orphanIds = before0
          .filter((f) => f.txHash === orphan || f.txHash === orphanToken)
          .map((f) => f.id);
        expect(orphanIds.length).toBeGreaterThanOrEqual(2);
        for (const id of orphanIds) expect(retracted).toContain(id);

        // anvil's own reorg RPC: replace the last 2 blocks with one carrying a different deposit.
        const before = await allFlows();
        const tip = before[0] as FlowView;
        await anvil.rpc('anvil_reorg', [
          2,
          [[{ from: deployer, to: COINBASE_1, value: '0x6f05b59d3b20000' }, 0]], // 0.5 ETH in the new block 0
        ]);
        await visibleWithin(
          3000,
          (all) =>
            !all.some((f) => f.txHash === tip.txHash) &&
            all.some((f) => f.to.address === COINBASE_1 && f.amount === '0.5'),
        );
      } finally {
        await indexer.stop();
        await unsubscribe();
      }
    });
  },
);
