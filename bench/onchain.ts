import { openDatabase } from '../src/adapters/db/connect.ts';
import { tablesOf } from '../src/adapters/db/connect.ts';
import { migrateToLatest } from '../src/adapters/db/migrate.ts';
import { createEvmChainSource } from '../src/adapters/chain/evm/evm-source.ts';
import {
  type OnchainTables,
  createAddressBook,
  createIndexer,
  createKyselyOnchainRepository,
  createOnchainService,
  parseLabelsCsv,
} from '../src/modules/onchain/index.ts';
import { type Anvil, startAnvil } from '../test/onchain/fixtures/anvil.ts';
import { runNetflow } from './onchain-netflow.ts';
import { erc20CreationCode } from '../test/onchain/fixtures/erc20.ts';

/**
 * On-chain indexer on a real anvil node, PGlite in memory:
 * 1. throughput — N blocks of 100 labelled transfers each (half native ETH, half ERC-20; deposits and
 *    withdrawals) mined beforehand, then indexed from scratch: blocks/s and flows/s;
 * 2. latency — with the indexer following the head (confirmations 0, poll 100 ms), time from `evm_mine`
 *    returning to the block's last flow being returned by the flows service.
 */
const BLOCKS = Number(process.env.BENCH_ONCHAIN_BLOCKS ?? 40);
const PER_BLOCK = 100;
const LATENCY_BLOCKS = Number(process.env.BENCH_ONCHAIN_LATENCY_BLOCKS ?? 10);

const EXCHANGES = [
  ['binance', '0x28c6c06298d514db089934071355e5743bf21d60'],
  ['coinbase', '0x71660c4005ba85c37ccec55d0c4493e66fe775d3'],
  ['kraken', '0x2910543af39aba0cd09dbb2d50200b3e800a63d2'],
  ['okx', '0x6cc5f688a315f3dc28a7781717a9a798a59fda7b'],
] as const;
const hot = EXCHANGES[0][1];

const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');

async function batch(anvil: Anvil, calls: Array<{ method: string; params: unknown[] }>) {
  const res = await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: i, ...c }))),
  });
  const out = (await res.json()) as Array<{ error?: { message: string } }>;
  const failed = out.find((r) => r.error);
  if (failed) throw new Error(failed.error?.message);
}

export async function run() {
  // BENCH_ONCHAIN_ONLY=netflow runs only the netflow query case (no anvil).
  const netflow = await runNetflow();
  if (process.env.BENCH_ONCHAIN_ONLY === 'netflow') return { netflow };
  return { ...(await runIndexer()), netflow };
}

async function runIndexer() {
  const anvil = await startAnvil(['--gas-limit', '100000000']);
  try {
    const [deployer] = (await anvil.rpc<string[]>('eth_accounts')) as [string];
    await anvil.rpc('eth_sendTransaction', [
      { from: deployer, data: erc20CreationCode(10n ** 18n, 6), gas: '0x100000' },
    ]);
    const token = (
      await anvil.rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [
        (
          await anvil.rpc<{ transactions: string[] }>('eth_getBlockByNumber', ['latest', false])
        ).transactions[0],
      ])
    ).contractAddress;
    // The hot wallet sends withdrawals: give it ETH and tokens, and let us sign as it.
    await anvil.rpc('anvil_impersonateAccount', [hot]);
    await anvil.rpc('anvil_setBalance', [hot, '0x21e19e0c9bab2400000']);
    await anvil.rpc('eth_sendTransaction', [
      {
        from: deployer,
        to: token,
        data: `0xa9059cbb${word(hot)}${word((10n ** 15n).toString(16))}`,
        gas: '0x20000',
      },
    ]);
    await anvil.rpc('evm_setAutomine', [false]);
    const nonces = new Map<string, number>();
    for (const a of [deployer, hot])
      nonces.set(a, Number(await anvil.rpc<string>('eth_getTransactionCount', [a, 'pending'])));

    async function fillBlock(seq: number) {
      const calls = [];
      for (let i = 0; i < PER_BLOCK; i++) {
        const withdraw = i % 4 === 3;
        const from = withdraw ? hot : deployer;
        const target = EXCHANGES[(seq + i) % EXCHANGES.length]?.[1] as string;
        const to = withdraw ? `0x${(0x1000 + i).toString(16).padStart(40, '0')}` : target;
        const nonce = nonces.get(from) as number;
        nonces.set(from, nonce + 1);
        const tx =
          i % 2 === 0
            ? {
                from,
                to,
                value: `0x${(10n ** 15n + BigInt(i)).toString(16)}`,
                gas: '0x5208',
                nonce: `0x${nonce.toString(16)}`,
              }
            : {
                from,
                to: token,
                data: `0xa9059cbb${word(to)}${word((1_000_000 + i).toString(16))}`,
                gas: '0x15f90',
                nonce: `0x${nonce.toString(16)}`,
              };
        calls.push({ method: 'eth_sendTransaction', params: [tx] });
      }
      await batch(anvil, calls);
    }

    const firstBench = Number(await anvil.rpc<string>('eth_blockNumber')) + 1;
    const tBuild = performance.now();
    for (let b = 0; b < BLOCKS; b++) {
      await fillBlock(b);
      await anvil.rpc('evm_mine');
    }
    const buildSec = (performance.now() - tBuild) / 1000;
    const lastBench = Number(await anvil.rpc<string>('eth_blockNumber'));
    const counted = await anvil.rpc<{ transactions: string[] }>('eth_getBlockByNumber', [
      `0x${lastBench.toString(16)}`,
      false,
    ]);
    if (counted.transactions.length !== PER_BLOCK)
      throw new Error(`block has ${counted.transactions.length} txs, expected ${PER_BLOCK}`);

    const book = createAddressBook([
      parseLabelsCsv(`exchange,address\n${EXCHANGES.map(([e, a]) => `${e},${a}`).join('\n')}\n`, {
        source: 'bench',
      }),
    ]);
    const prices = { usdPrice: (asset: string) => (asset === 'ETH' ? 3000 : undefined) };
    const db = await openDatabase({});
    await migrateToLatest(db.db);
    const repo = createKyselyOnchainRepository(tablesOf<OnchainTables>(db.db));
    const source = createEvmChainSource({
      rpcUrl: anvil.url,
      tokens: [{ symbol: 'USDT', address: token, decimals: 6 }],
    });
    const service = createOnchainService({ repo, book });

    // 1. Throughput from scratch.
    const indexer = createIndexer({
      source,
      repo,
      book,
      prices,
      startBlock: firstBench,
      confirmations: 0,
      batchSize: 25,
      fetchConcurrency: 5,
      pollMs: 100,
    });
    const t0 = performance.now();
    let flows = 0;
    for (;;) {
      const r = await indexer.step();
      if (r.kind === 'indexed') flows += r.flows;
      if (r.kind === 'idle' || (r.kind === 'indexed' && r.to >= lastBench)) break;
    }
    const sec = (performance.now() - t0) / 1000;
    const blocks = lastBench - firstBench + 1;

    // 2. Latency block → endpoint, indexer running in the background.
    indexer.start();
    await new Promise((r) => setTimeout(r, 300));
    const latencies: number[] = [];
    for (let b = 0; b < LATENCY_BLOCKS; b++) {
      await fillBlock(1000 + b);
      const mined = performance.now();
      await anvil.rpc('evm_mine');
      const number = Number(await anvil.rpc<string>('eth_blockNumber'));
      for (;;) {
        const page = await service.listFlows({ limit: 1 });
        if ((page.data[0]?.blockNumber ?? 0) >= number) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      latencies.push(performance.now() - mined);
      await new Promise((r) => setTimeout(r, 150));
    }
    await indexer.stop();
    await db.close();
    latencies.sort((a, b) => a - b);
    const q = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number;
    const result = {
      blocks,
      transfersPerBlock: PER_BLOCK,
      flows,
      seconds: Number(sec.toFixed(2)),
      blocksPerSec: Number((blocks / sec).toFixed(1)),
      flowsPerSec: Math.round(flows / sec),
      latencyMs: { p50: Math.round(q(0.5)), p90: Math.round(q(0.9)), max: Math.round(q(1)) },
      chainBuildSeconds: Number(buildSec.toFixed(1)),
    };
    console.log('On-chain indexer (anvil, PGlite in memory, 100 labelled transfers per block)');
    console.table({
      throughput: {
        blocks,
        flows,
        seconds: result.seconds,
        'blocks/s': result.blocksPerSec,
        'flows/s': result.flowsPerSec,
      },
    });
    console.table({ 'block → endpoint latency (ms), poll 100 ms': result.latencyMs });
    return result;
  } finally {
    await anvil.stop();
  }
}
