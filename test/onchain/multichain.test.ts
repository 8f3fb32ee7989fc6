import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import type { FlowView } from '../../src/modules/onchain/index.ts';
import { runOnchainCommand } from '../../src/main/onchain-command.ts';
import { topics } from '../../src/shared/bus.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';
import { type Anvil, anvilBinary, startAnvil } from './fixtures/anvil.ts';
import { erc20CreationCode } from './fixtures/erc20.ts';

const haveAnvil = anvilBinary() !== undefined;
if (!haveAnvil && process.env.MERIDIAN_REQUIRE_SERVICES === '1')
  throw new Error('the two-chain suite needs the anvil binary (scripts/ensure-tools.mjs)');

const BINANCE_ETH = '0x28c6c06298d514db089934071355e5743bf21d60';
const BINANCE_ARB = '0xb38e8c17e38363af6ebdcb3dae12e0243582891d';
const OKX_ARB = '0x6cc5f688a315f3dc28a7781717a9a798a59fda7b';
const abi = parseAbi(['function transfer(address,uint256) returns (bool)']);

interface Node {
  anvil: Anvil;
  chain: ReturnType<typeof defineChain>;
  pub: PublicClient;
  wallet: WalletClient;
  deployer: Hex;
  token: Hex;
}

async function node(chainId: number): Promise<Node> {
  const anvil = await startAnvil(['--chain-id', String(chainId)]);
  const chain = defineChain({
    id: chainId,
    name: `anvil-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } },
  });
  const pub = createPublicClient({ chain, transport: http(anvil.url) }) as unknown as PublicClient;
  const wallet = createWalletClient({ chain, transport: http(anvil.url) });
  const [deployer] = (await anvil.rpc<Hex[]>('eth_accounts')) as [Hex];
  const hash = await wallet.deployContract({
    account: deployer,
    chain,
    abi: [],
    bytecode: erc20CreationCode(10n ** 15n, 6),
  });
  const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  return { anvil, chain, pub, wallet, deployer, token: receipt.contractAddress as Hex };
}

async function mined(n: Node, hash: Hex) {
  const receipt = await n.pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  expect(receipt.status).toBe('success');
  return receipt.transactionHash.toLowerCase();
}
const sendEth = async (n: Node, to: string, wei: bigint) =>
  mined(
    n,
    await n.wallet.sendTransaction({ account: n.deployer, chain: n.chain, to: to as Hex, value: wei }),
  );
const sendToken = async (n: Node, to: string, raw: bigint) =>
  mined(
    n,
    await n.wallet.writeContract({
      account: n.deployer,
      chain: n.chain,
      address: n.token,
      abi,
      functionName: 'transfer',
      args: [to as Hex, raw],
    }),
  );

// Two local nodes with different chain ids indexed at once by one app: one indexer, checkpoint and lease each.
describe.skipIf(!haveAnvil)('two EVM chains indexed at once (two anvil nodes)', () => {
  let eth: Node;
  let arb: Node;
  let t: TestApp;
  let viewer: TestUser;
  const removed: Array<{ chain: string; ids: string[] }> = [];

  async function flows(query: string): Promise<FlowView[]> {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/onchain/flows?limit=500&${query}`,
      headers: viewer.auth,
    });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  }
  const seen = (query: string, hash: string, count = 1) =>
    waitUntil(
      async () => (await flows(query)).filter((f) => f.txHash === hash).length === count,
      hash,
      10_000,
      25,
    );

  beforeAll(async () => {
    [eth, arb] = await Promise.all([node(31337), node(31338)]);
    const dir = mkdtempSync(join(tmpdir(), 'meridian-chains-'));
    const labels = join(dir, 'labels.json');
    writeFileSync(
      labels,
      JSON.stringify({
        version: 'two-chains-test',
        labels: [
          { exchange: 'binance', chain: 'arbitrum', address: BINANCE_ARB, tag: 'Binance Arbitrum' },
          { exchange: 'okx', chain: 'arbitrum', address: OKX_ARB, tag: 'OKX Arbitrum' },
        ],
      }),
    );
    t = await createTestApp({
      db: dbKinds().at(-1),
      env: {
        MERIDIAN_LABELS_PATH: labels,
        MERIDIAN_CHAIN_POLL_MS: '50',
        MERIDIAN_CHAIN_BACKFILL_BLOCKS: '0',
        // No decimals given: they are read from the token contracts.
        MERIDIAN_CHAINS: JSON.stringify([
          {
            name: 'ethereum',
            chainId: 31337,
            rpcUrl: eth.anvil.url,
            confirmations: 0,
            tokens: [{ symbol: 'USDT', address: eth.token }],
          },
          {
            name: 'arbitrum',
            chainId: 31338,
            rpcUrl: arb.anvil.url,
            confirmations: 0,
            tokens: [{ symbol: 'USDC', address: arb.token }],
          },
        ]),
      },
    });
    viewer = await t.user('viewer');
    await t.container.bus.subscribe(topics.onchainFlowsRemoved, (r) => removed.push(r));
    await t.container.onchain.job.start();
  }, 90_000);

  afterAll(async () => {
    await t?.container.onchain.job.stop();
    await t?.close();
    await eth?.anvil.stop();
    await arb?.anvil.stop();
  });

  it('indexes both chains, filters by chain, exchange and asset, reads token decimals from the contract', async () => {
    expect(t.container.onchain.chains.map((c) => c.spec.name)).toEqual(['ethereum', 'arbitrum']);
    const a = await sendEth(eth, BINANCE_ETH, 10n ** 18n);
    const b = await sendToken(arb, BINANCE_ARB, 2_500_000n);
    await seen('chain=ethereum', a);
    await seen('chain=arbitrum', b);
    const [onArb] = (await flows('chain=arbitrum&exchange=binance&asset=usdc')).filter((f) => f.txHash === b);
    expect(onArb).toMatchObject({
      chain: 'arbitrum',
      asset: 'USDC',
      amount: '2.5',
      direction: 'deposit',
      usdValue: 2.5,
    });
    expect(onArb?.labelVersion).toBe(t.container.onchain.book.version);
    expect((await flows('chain=ethereum')).some((f) => f.txHash === b)).toBe(false);
    expect((await flows('chain=arbitrum&exchange=okx')).some((f) => f.txHash === b)).toBe(false);
    // The netflow series, summed by the database from the stored flows.
    const day = 86_400_000;
    const series = await t.app.inject({
      method: 'GET',
      url: `/api/onchain/netflow?chain=arbitrum&exchange=binance&asset=usdc&interval=1d&from=${Date.now() - 2 * day}&to=${Date.now() + day}`,
      headers: viewer.auth,
    });
    expect(series.statusCode).toBe(200);
    const buckets = series.json().data as Array<{
      inflow: string;
      netflow: string;
      flows: number;
      gap: boolean;
    }>;
    expect(buckets.filter((x) => x.flows > 0).map((x) => [x.inflow, x.netflow])).toEqual([['2.5', '2.5']]);
    expect(buckets.every((x) => x.gap)).toBe(true); // the current day is past the checkpoint: partial
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/onchain/flows?chain=solana',
      headers: viewer.auth,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].pointer).toBe('/query/chain');
  }, 30_000);

  it('a reorg on one chain retracts its orphaned flows (with an event) while the other chain advances untouched', async () => {
    const before = (await flows('chain=arbitrum')).map((f) => f.id).sort();
    const snapshot = await eth.anvil.rpc<string>('evm_snapshot');
    const orphan = await sendEth(eth, BINANCE_ETH, 3n * 10n ** 17n);
    await seen('chain=ethereum', orphan);
    const during = await sendToken(arb, BINANCE_ARB, 7_000_000n);
    expect(await eth.anvil.rpc('evm_revert', [snapshot])).toBe(true);
    await eth.anvil.rpc('anvil_mine', ['0x3']);
    const after = await sendToken(arb, OKX_ARB, 1_000_000n);
    await seen('chain=ethereum', orphan, 0);
    await seen('chain=arbitrum', during);
    await seen('chain=arbitrum', after);
    await waitUntil(async () => removed.some((r) => r.chain === 'ethereum'), 'flows-removed', 5_000, 25);
    const event = removed.find((r) => r.chain === 'ethereum');
    expect(event?.ids).toContain(`ethereum:${orphan}:-1:binance`);
    expect(removed.some((r) => r.chain === 'arbitrum')).toBe(false);
    const arbNow = (await flows('chain=arbitrum')).map((f) => f.id);
    for (const id of before) expect(arbNow).toContain(id);
    const ethIndexer = t.container.onchain.chains[0]?.indexer.status();
    expect(ethIndexer?.reorgs).toBeGreaterThanOrEqual(1);
    expect(t.container.onchain.chains[1]?.indexer.status().reorgs).toBe(0);
  }, 40_000);

  it('verify re-reads the node and reports a flow corrupted in storage and one deleted', async () => {
    const head = Number(await arb.anvil.rpc<string>('eth_blockNumber'));
    await waitUntil(
      async () => ((await t.container.onchain.repo.checkpoint('arbitrum'))?.blockNumber ?? -1) >= head,
      'arbitrum indexed to its head',
      10_000,
      25,
    );
    const args = ['verify', '--chain', 'arbitrum', '--from', '0', '--to', String(head)];
    const clean = await runOnchainCommand(t.container.config, args, t.container.db);
    expect(clean.out.at(-1)).toMatch(/^ok/);
    expect(clean.code).toBe(0);

    const stored = (await flows('chain=arbitrum')).filter((f) => f.direction === 'deposit');
    expect(stored.length).toBeGreaterThanOrEqual(2);
    const [corrupt, gone] = stored as [FlowView, FlowView];
    const db = t.container.db.db;
    await sql`update onchain_flows set amount_raw = amount_raw + 1, amount = amount + 0.000001
      where chain = 'arbitrum' and tx_hash = ${corrupt.txHash} and exchange = ${corrupt.exchange}`.execute(
      db,
    );
    await sql`delete from onchain_flows
      where chain = 'arbitrum' and tx_hash = ${gone.txHash} and exchange = ${gone.exchange}`.execute(db);

    const report = await runOnchainCommand(t.container.config, [...args, '--json'], t.container.db);
    expect(report.code).toBe(1);
    const parsed = JSON.parse(report.out[0] as string);
    expect(parsed.ok).toBe(false);
    expect(parsed.missing).toEqual([gone.id]);
    expect(parsed.differing).toHaveLength(1);
    expect(parsed.differing[0].id).toBe(corrupt.id);
    expect(parsed.differing[0].fields.map((f: { field: string }) => f.field)).toEqual(['amountRaw']);
    const text = await runOnchainCommand(t.container.config, args, t.container.db);
    expect(text.out.join('\n')).toContain(`missing   ${gone.id}`);
    expect(text.out.join('\n')).toContain(`differs   ${corrupt.id}`);
  }, 40_000);
});
