import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Anvil, startAnvil } from '../test/onchain/fixtures/anvil.ts';
import { erc20CreationCode } from '../test/onchain/fixtures/erc20.ts';
import { serverProcess, startServed, stopServed, waitReady } from './npm-start.ts';

/**
 * Two EVM chains indexed at once by `npm start` (one process, embedded PGlite unless DATABASE_URL is set), each
 * from its own anvil node (chain ids 31337 and 31338, two ERC-20 tokens each) behind a pass-through proxy.
 * Traffic is ERC-20 `Transfer`s only: per block 40 % deposits to labelled exchange wallets, 20 % withdrawals
 * from exchange hot wallets, 40 % between unlabelled wallets (read and dropped by the indexer).
 * 1. Burst: with the server up, caught up and settled, the proxies hold the head it sees while BLOCKS blocks of
 *    BURST_PER_BLOCK transfers are mined on both chains, then release both at once. Transfers classified and
 *    stored per second = labelled transfers / (the indexer's first look at the new head → checkpoint at the
 *    last block, from `/readyz`). The server's and the nodes' CPU seconds are reported too (loaded machines).
 * 2. Steady: both chains mine a block every second (STEADY_PER_BLOCK transfers) for STEADY_SECONDS; every 100 ms
 *    the lag (head − the indexer's checkpoint, from `/readyz`) is sampled and compared with the confirmations.
 * Results: bench/results/onchain-chains.json.
 */
const BLOCKS = Number(process.env.BENCH_CHAINS_BLOCKS ?? 100);
const BURST_PER_BLOCK = Number(process.env.BENCH_CHAINS_PER_BLOCK ?? 300);
const STEADY_PER_BLOCK = Number(process.env.BENCH_CHAINS_STEADY_PER_BLOCK ?? 100);
const STEADY_SECONDS = Number(process.env.BENCH_CHAINS_STEADY_SECONDS ?? 60);
const SAMPLE_MS = 100;
const EXCHANGES = ['binance', 'coinbase', 'kraken', 'okx'] as const;
const ADDRESSES_PER_EXCHANGE = 3;

interface ChainPlan {
  name: string;
  chainId: number;
  confirmations: number;
}
export const PLANS: ChainPlan[] = [
  { name: 'ethereum', chainId: 31337, confirmations: 12 },
  { name: 'arbitrum', chainId: 31338, confirmations: 4 },
];

const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');
const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A deterministic address of the bench: `kind` picks the family (exchange wallets, fresh users). */
const address = (kind: number, chain: number, i: number) =>
  `0x${kind.toString(16).padStart(2, '0')}${chain.toString(16).padStart(6, '0')}${i.toString(16).padStart(32, '0')}`;

export interface Node {
  plan: ChainPlan;
  anvil: Anvil;
  tokens: string[];
  users: string[];
  /** Exchange wallets: every one labelled; the first of each exchange also sends withdrawals. */
  wallets: Array<{ exchange: string; address: string }>;
  hot: string[];
  nonces: Map<string, number>;
  head: number;
  fresh: number;
}

async function batch(anvil: Anvil, calls: Array<{ method: string; params: unknown[] }>) {
  for (let i = 0; i < calls.length; i += 200) {
    const part = calls.slice(i, i + 200);
    const res = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(part.map((c, id) => ({ jsonrpc: '2.0', id, ...c }))),
    });
    const out = (await res.json()) as Array<{ error?: { message: string } }>;
    const failed = out.find((r) => r.error);
    if (failed) throw new Error(failed.error?.message);
  }
}

const transferCall = (from: string, token: string, to: string, amount: bigint, nonce: number) => ({
  method: 'eth_sendTransaction',
  params: [
    {
      from,
      to: token,
      data: `0xa9059cbb${word(to)}${word(amount.toString(16))}`,
      gas: '0x186a0',
      nonce: hex(nonce),
    },
  ],
});

export async function mine(node: Node, expectTxs: number) {
  await node.anvil.rpc('evm_mine');
  node.head = Number(await node.anvil.rpc<string>('eth_blockNumber'));
  if (expectTxs > 0) {
    const block = await node.anvil.rpc<{ transactions: string[] }>('eth_getBlockByNumber', [
      hex(node.head),
      false,
    ]);
    if (block.transactions.length !== expectTxs)
      throw new Error(
        `${node.plan.name} block ${node.head}: ${block.transactions.length} txs, not ${expectTxs}`,
      );
  }
}

export async function setUp(plan: ChainPlan, index: number): Promise<Node> {
  const anvil = await startAnvil(['--chain-id', String(plan.chainId), '--gas-limit', '100000000']);
  const accounts = await anvil.rpc<string[]>('eth_accounts');
  const deployer = accounts[0] as string;
  const tokens: string[] = [];
  for (const decimals of [6, 6]) {
    const hash = await anvil.rpc<string>('eth_sendTransaction', [
      { from: deployer, data: erc20CreationCode(10n ** 30n, decimals), gas: '0x100000' },
    ]);
    // Automine answers before the receipt is always readable on a busy machine.
    let receipt: { contractAddress: string } | null = null;
    while (!receipt) {
      receipt = await anvil.rpc<{ contractAddress: string } | null>('eth_getTransactionReceipt', [hash]);
      if (!receipt) await sleep(20);
    }
    tokens.push(receipt.contractAddress.toLowerCase());
  }
  const wallets = EXCHANGES.flatMap((exchange, e) =>
    Array.from({ length: ADDRESSES_PER_EXCHANGE }, (_, i) => ({
      exchange,
      address: address(0xee, index, e * 16 + i),
    })),
  );
  const hot = wallets.filter((_, i) => i % ADDRESSES_PER_EXCHANGE === 0).map((w) => w.address);
  const users = accounts.slice(1).map((a) => a.toLowerCase());
  // Users and hot wallets hold both tokens and gas; hot wallets are signed for by anvil (impersonated).
  const nonces = new Map<string, number>();
  nonces.set(deployer, Number(await anvil.rpc<string>('eth_getTransactionCount', [deployer, 'pending'])));
  const funding = [];
  for (const holder of [...users, ...hot]) {
    for (const token of tokens) {
      const nonce = nonces.get(deployer) as number;
      nonces.set(deployer, nonce + 1);
      funding.push(transferCall(deployer, token, holder, 10n ** 24n, nonce));
    }
  }
  for (const h of hot) {
    await anvil.rpc('anvil_impersonateAccount', [h]);
    await anvil.rpc('anvil_setBalance', [h, '0x21e19e0c9bab2400000']);
  }
  await batch(anvil, funding);
  await anvil.rpc('evm_setAutomine', [false]);
  for (const a of [...users, ...hot])
    nonces.set(a, Number(await anvil.rpc<string>('eth_getTransactionCount', [a, 'pending'])));
  const node: Node = { plan, anvil, tokens, users, wallets, hot, nonces, head: 0, fresh: 0 };
  await mine(node, 0);
  return node;
}

/** Queues one block's transfers: 40 % deposits, 20 % withdrawals, 40 % between unlabelled wallets. */
export async function fill(node: Node, count: number) {
  const calls = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    const token = node.tokens[i % node.tokens.length] as string;
    const amount = 1_000_000n + BigInt((i * 7919) % 100_000_000);
    const wallet = node.wallets[(node.fresh + i) % node.wallets.length] as { address: string };
    const user = node.users[i % node.users.length] as string;
    const stranger = address(0x5a, node.plan.chainId, ++node.fresh);
    const [from, to] =
      kind < 2
        ? [user, wallet.address]
        : kind === 2
          ? [node.hot[i % node.hot.length] as string, stranger]
          : [user, stranger];
    const nonce = node.nonces.get(from) as number;
    node.nonces.set(from, nonce + 1);
    calls.push(transferCall(from, token, to, amount, nonce));
  }
  await batch(node.anvil, calls);
}
const labelled = (count: number) => Array.from({ length: count }, (_, i) => i % 5 < 3).filter(Boolean).length;

interface Sample {
  t: number;
  checkpoint: Record<string, number | null>;
  running: Record<string, boolean>;
}

async function readCheckpoints(url: string): Promise<Omit<Sample, 't'>> {
  const res = await fetch(`${url}/readyz`);
  const body = (await res.json()) as {
    components: Record<string, { details?: { checkpoint: number | null } }>;
  };
  const checkpoint: Record<string, number | null> = {};
  const running: Record<string, boolean> = {};
  for (const plan of PLANS) {
    const component = body.components[`indexer:${plan.name}`];
    running[plan.name] = component !== undefined;
    checkpoint[plan.name] = component?.details?.checkpoint ?? null;
  }
  return { checkpoint, running };
}

/** CPU seconds a process has used (user + system, all its threads), from /proc; 0 where there is none. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const quantile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;

/**
 * A JSON-RPC pass-through to anvil that can hold the head the server sees (`eth_blockNumber`) still, so the
 * burst is mined while the server is already up and warm, then released at once. Records when the indexer
 * first asks for the head after a release: the burst's start.
 */
async function headProxy(target: string) {
  const state = { frozen: null as number | null, releasedAt: 0, firstAsk: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const asksHead = body.includes('eth_blockNumber');
      if (asksHead && state.frozen === null && state.releasedAt && !state.firstAsk)
        state.firstAsk = performance.now();
      try {
        const upstream = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        let text = await upstream.text();
        if (asksHead && state.frozen !== null) {
          const calls = [JSON.parse(body.toString())].flat() as Array<{ id: number; method: string }>;
          const ids = new Set(calls.filter((c) => c.method === 'eth_blockNumber').map((c) => c.id));
          const out = JSON.parse(text) as
            | Array<{ id: number; result?: unknown }>
            | { id: number; result?: unknown };
          for (const r of [out].flat()) if (ids.has(r.id)) r.result = hex(state.frozen);
          text = JSON.stringify(out);
        }
        res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
      } catch (error) {
        res.writeHead(502).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    freeze: (head: number) => {
      state.frozen = head;
    },
    release: () => {
      state.frozen = null;
      state.releasedAt = performance.now();
      state.firstAsk = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** CPU seconds per thread of a process (name and seconds by thread id), from /proc. */
function threadCpu(pid: number | undefined): Map<string, { name: string; seconds: number }> {
  const out = new Map<string, { name: string; seconds: number }>();
  if (!pid) return out;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, { name, seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    }
  } catch {
    // gone, or no /proc
  }
  return out;
}

const until = async (what: string, check: () => Promise<boolean>, ms = 300_000) => {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(SAMPLE_MS);
  }
};

export async function run() {
  const nodes: Node[] = [];
  const proxies: Array<Awaited<ReturnType<typeof headProxy>>> = [];
  const dir = mkdtempSync(join(tmpdir(), 'meridian-chains-bench-'));
  let served: Awaited<ReturnType<typeof startServed>> | undefined;
  try {
    for (const [i, plan] of PLANS.entries()) nodes.push(await setUp(plan, i));
    for (const node of nodes) proxies.push(await headProxy(node.anvil.url));
    // The server starts on quiet chains (the funding block confirmed), indexes them from there and warms up.
    for (const node of nodes) for (let b = 0; b < node.plan.confirmations; b++) await mine(node, 0);
    const labels = join(dir, 'labels.json');
    writeFileSync(
      labels,
      JSON.stringify({
        version: 'bench-chains',
        labels: nodes.flatMap((n) =>
          n.wallets.map((w) => ({ exchange: w.exchange, chain: n.plan.name, address: w.address })),
        ),
      }),
    );
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    served = await startServed(dataDir, {
      MERIDIAN_LABELS_PATH: labels,
      MERIDIAN_CHAIN_BACKFILL_BLOCKS: '0',
      MERIDIAN_BUS_PREFIX: `bench-chains-${process.pid}`,
      MERIDIAN_CHAINS: JSON.stringify(
        nodes.map((n, i) => ({
          name: n.plan.name,
          chainId: n.plan.chainId,
          rpcUrl: proxies[i]?.url,
          confirmations: n.plan.confirmations,
          tokens: n.tokens.map((address, t) => ({ symbol: t === 0 ? 'USDT' : 'USDC', address })),
        })),
      ),
    });
    const url = served.url;
    const serverPid = serverProcess(served.child.pid as number)?.pid;
    await waitReady(url);
    const caughtUp = async () => {
      const s = await readCheckpoints(url);
      return nodes.every((n) => s.checkpoint[n.plan.name] === n.head - n.plan.confirmations);
    };
    await until('both indexers to reach the head', caughtUp);
    // Start-up work (history, model warm-up) done: the server's CPU use falls below a fifth of a core.
    const settled = await until(
      'the server to settle',
      async () => {
        const before = cpuSeconds(serverPid);
        await sleep(2000);
        return cpuSeconds(serverPid) - before < 0.4;
      },
      120_000,
    ).then(
      () => true,
      () => false,
    );

    // 1. Burst: BLOCKS full blocks, then `confirmations` empty ones so that the last full block is confirmed,
    //    mined while the server sees the old head; then both heads are released at once.
    for (const [i, node] of nodes.entries()) proxies[i]?.freeze(node.head);
    const tBuild = performance.now();
    const firstBurst = nodes.map((n) => n.head + 1);
    await Promise.all(
      nodes.map(async (node) => {
        for (let b = 0; b < BLOCKS; b++) {
          await fill(node, BURST_PER_BLOCK);
          await mine(node, BURST_PER_BLOCK);
        }
        for (let b = 0; b < node.plan.confirmations; b++) await mine(node, 0);
      }),
    );
    const buildSeconds = (performance.now() - tBuild) / 1000;
    const lastBurst = nodes.map((n) => n.head - n.plan.confirmations);
    console.log(
      `chains built in ${buildSeconds.toFixed(1)} s: ${BLOCKS} blocks × ${BURST_PER_BLOCK} transfers each`,
    );
    const cpuAt = () => ({
      server: cpuSeconds(serverPid),
      threads: threadCpu(serverPid),
      anvil: nodes.map((n) => cpuSeconds(n.anvil.process.pid)),
    });
    const cpuStart = cpuAt();
    for (const proxy of proxies) proxy.release();

    const samples: Sample[] = [];
    const t0 = performance.now();
    for (;;) {
      const s = { t: performance.now(), ...(await readCheckpoints(url)) };
      samples.push(s);
      if (PLANS.every((p, i) => (s.checkpoint[p.name] ?? -1) >= (lastBurst[i] as number))) break;
      if (performance.now() - t0 > 600_000) throw new Error('the burst was not indexed in 10 minutes');
      await sleep(SAMPLE_MS / 2);
    }
    const cpuEnd = cpuAt();
    const burst = PLANS.map((plan, i) => {
      // From the indexer's first look at the released head (it polls every second while idle).
      const started = proxies[i]?.state.firstAsk || t0;
      const done = samples.find((s) => (s.checkpoint[plan.name] ?? -1) >= (lastBurst[i] as number))
        ?.t as number;
      const blocks = (lastBurst[i] as number) - (firstBurst[i] as number) + 1;
      const transfers = blocks * BURST_PER_BLOCK;
      const stored = blocks * labelled(BURST_PER_BLOCK);
      const seconds = (done - started) / 1000;
      return {
        chain: plan.name,
        blocks,
        transfersRead: transfers,
        transfersStored: stored,
        seconds: Number(seconds.toFixed(2)),
        transfersReadPerSec: Math.round(transfers / seconds),
        transfersStoredPerSec: Math.round(stored / seconds),
      };
    });
    const bothStart = Math.min(...proxies.map((p) => p.state.firstAsk || t0));
    const bothSeconds = (samples.at(-1)!.t - bothStart) / 1000;
    const storedBoth = burst.reduce((sum, b) => sum + b.transfersStored, 0);
    const serverCpu = cpuEnd.server - cpuStart.server;
    const anvilCpu = cpuEnd.anvil.map((c, i) => c - (cpuStart.anvil[i] as number));
    // The busiest threads of the server during the burst: its event loop and the embedded database's thread
    // (by rank: /proc names them all `node`). Objects, not arrays: the file stays as biome formats it.
    const threads = [...cpuEnd.threads]
      .map(([tid, t]) => t.seconds - (cpuStart.threads.get(tid)?.seconds ?? 0))
      .sort((a, b) => b - a)
      .slice(0, 4)
      .map((seconds) => Number(seconds.toFixed(2)));
    const combined = {
      seconds: Number(bothSeconds.toFixed(2)),
      transfersStoredPerSec: Math.round(storedBoth / bothSeconds),
      // CPU spent, so that the rate a free core would give can be read off a loaded machine.
      serverCpuSeconds: Number(serverCpu.toFixed(2)),
      anvilCpuSeconds: Object.fromEntries(
        PLANS.map((p, i) => [p.name, Number((anvilCpu[i] as number).toFixed(2))]),
      ),
      transfersStoredPerServerCpuSecond: Math.round(storedBoth / serverCpu),
      serverBusiestThreadsCpuSeconds: Object.fromEntries(threads.map((seconds, i) => [`#${i + 1}`, seconds])),
    };

    // Every labelled transfer of the last burst block is a stored flow (classification ran).
    for (const [i, node] of nodes.entries()) {
      const res = await fetch(`${url}/api/onchain/flows?chain=${node.plan.name}&limit=500`, {
        headers: { authorization: `Bearer ${served.token}` },
      });
      const page = (await res.json()) as { data: Array<{ blockNumber: number }> };
      const inLast = page.data.filter((f) => f.blockNumber === lastBurst[i]).length;
      if (inLast !== labelled(BURST_PER_BLOCK))
        throw new Error(
          `${node.plan.name}: ${inLast} flows in block ${lastBurst[i]}, not ${labelled(BURST_PER_BLOCK)}`,
        );
    }

    // 2. Steady: a block a second on both chains; lag sampled every SAMPLE_MS.
    const lags = new Map<string, number[]>(PLANS.map((p) => [p.name, []]));
    let steady = true;
    const sampler = (async () => {
      while (steady) {
        const s = await readCheckpoints(url);
        for (const node of nodes) {
          const cp = s.checkpoint[node.plan.name];
          if (cp !== null && cp !== undefined) lags.get(node.plan.name)!.push(node.head - cp);
        }
        await sleep(SAMPLE_MS);
      }
    })();
    await Promise.all(nodes.map((n) => fill(n, STEADY_PER_BLOCK)));
    const tSteady = performance.now();
    let late = 0;
    for (let b = 1; b <= STEADY_SECONDS; b++) {
      await Promise.all(nodes.map((n) => mine(n, STEADY_PER_BLOCK)));
      await Promise.all(nodes.map((n) => fill(n, STEADY_PER_BLOCK)));
      const wait = tSteady + b * 1000 - performance.now();
      if (wait > 0) await sleep(wait);
      else late++;
    }
    const steadyBlocksPerSec = STEADY_SECONDS / ((performance.now() - tSteady) / 1000);
    steady = false;
    await sampler;

    const lag = PLANS.map((plan) => {
      const sorted = [...(lags.get(plan.name) as number[])].sort((a, b) => a - b);
      const max = sorted.at(-1) as number;
      return {
        chain: plan.name,
        confirmations: plan.confirmations,
        samples: sorted.length,
        lagBlocks: { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max },
        maxBeyondConfirmations: max - plan.confirmations,
      };
    });

    const [one, five, fifteen] = loadavg().map((v) => Math.round(v * 100) / 100);
    const result = {
      setup: {
        server: process.env.DATABASE_URL ? 'npm start, PostgreSQL' : 'npm start, embedded PGlite',
        tokensPerChain: 2,
        burstBlocks: BLOCKS,
        burstTransfersPerBlock: BURST_PER_BLOCK,
        labelledShare: 0.6,
        steadyTransfersPerBlock: STEADY_PER_BLOCK,
        steadySeconds: STEADY_SECONDS,
        pollMs: 1000,
        chainBuildSeconds: Number(buildSeconds.toFixed(1)),
        lateBlocks: late,
        // Below 1 when the driver could not mine and fill both chains within the second (a busy machine).
        steadyBlocksPerSec: Number(steadyBlocksPerSec.toFixed(2)),
        serverSettledBeforeBurst: settled,
      },
      loadAverage: { oneMinute: one, fiveMinutes: five, fifteenMinutes: fifteen },
      burst,
      combined,
      lag,
    };
    console.log('Two chains at once (npm start; anvil × 2; 2 ERC-20s each; 60 % of transfers labelled)');
    console.table(
      Object.fromEntries(
        burst.map((b) => [
          b.chain,
          {
            blocks: b.blocks,
            'transfers read': b.transfersRead,
            'stored (labelled)': b.transfersStored,
            seconds: b.seconds,
            'read/s': b.transfersReadPerSec,
            'stored/s': b.transfersStoredPerSec,
          },
        ]),
      ),
    );
    console.log(
      `both chains together: ${combined.transfersStoredPerSec} transfers stored/s; server CPU ${combined.serverCpuSeconds} s ` +
        `(${combined.transfersStoredPerServerCpuSecond} stored per CPU-second), anvil CPU ${Object.values(combined.anvilCpuSeconds).join(' + ')} s`,
    );
    console.log(`server's busiest threads (CPU s): ${threads.join(', ')}`);
    console.table(
      Object.fromEntries(
        lag.map((l) => [
          `${l.chain} (confirmations ${l.confirmations})`,
          { p50: l.lagBlocks.p50, p99: l.lagBlocks.p99, max: l.lagBlocks.max, samples: l.samples },
        ]),
      ),
    );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/onchain-chains.json', `${JSON.stringify(result, null, 2)}\n`);
    console.log('written to bench/results/onchain-chains.json');
    return result;
  } finally {
    if (served) await stopServed(served.child);
    await Promise.all(proxies.map((p) => p.close()));
    await Promise.all(nodes.map((n) => n.anvil.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
