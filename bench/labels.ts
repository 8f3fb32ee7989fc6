import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type AddressBook, loadAddressBook } from '../src/modules/onchain/index.ts';
import { median } from './stats.ts';

/**
 * The address book at scale: 100 k labels over seven chains, loaded from an operator CSV the way the server
 * loads `MERIDIAN_LABELS_PATH` (after the built-in set, and after the shared explorer exports when they are
 * beside the clone):
 * 1. memory — heap retained per label after full collections;
 * 2. lookup — median CPU time per `lookup(chain, address)` over batches of 50 k calls: hits given lower-case,
 *    hits given checksummed (mixed-case) addresses, misses; against a bare `Map.get` of the same lower-case
 *    keys in the same run (the ratio is what the book adds). Target: ≤ 1 µs median with 100 k loaded.
 */
const LABELS = Number(process.env.BENCH_LABELS ?? 100_000);
const BATCH = 50_000;
const ROUNDS = Number(process.env.BENCH_LABEL_ROUNDS ?? 30);
const CHAINS = ['ethereum', 'bsc', 'polygon', 'arbitrum', 'optimism', 'avalanche', 'fantom'];
const EXCHANGES = ['binance', 'OKEx', 'Coinbase Pro', 'kraken', 'huobi', 'bitfinex', 'kucoin', 'gate-io'];
const EXPLORER = resolve(process.cwd(), '../shared/data/labels/etherscan-labels');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function settledHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A pseudo-random 20-byte address for row i (no two alike). */
const addressOf = (i: number) =>
  `0x${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}${i.toString(16).padStart(32, '0')}`;

/** Mixed case as a checksummed address has (not the EIP-55 checksum itself; the book only lower-cases). */
const mixedCase = (address: string) =>
  `0x${[...address.slice(2)].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('')}`;

type Case = { calls: string[]; lookup: (chain: string, address: string) => unknown };

/**
 * Median ns per call of each case over the rounds, in CPU time of this process (time spent waiting for a
 * core on a shared machine is not the lookup's); the cases take turns within every round, so a change in the
 * machine's load between rounds moves them all alike.
 */
function timePerCall(cases: Case[], chainOf: (i: number) => string) {
  const perCall: number[][] = cases.map(() => []);
  const found = cases.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    cases.forEach(({ calls, lookup }, c) => {
      const start = (round * BATCH) % calls.length;
      const t0 = process.cpuUsage();
      for (let i = 0; i < BATCH; i++) {
        const k = (start + i) % calls.length;
        if (lookup(chainOf(k), calls[k] as string) !== undefined) found[c]!++;
      }
      const used = process.cpuUsage(t0);
      perCall[c]!.push(((used.user + used.system) * 1000) / BATCH);
    });
  }
  return cases.map((_, c) => ({ medianNs: median(perCall[c]!), found: found[c]! / ROUNDS }));
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-bench-labels-'));
  try {
    const rows = ['exchange,chain,address,tag'];
    for (let i = 0; i < LABELS; i++)
      rows.push(
        `${EXCHANGES[i % EXCHANGES.length]},${CHAINS[i % CHAINS.length]},${addressOf(i)},Wallet ${i}`,
      );
    const csv = join(dir, 'operator.csv');
    writeFileSync(csv, `${rows.join('\n')}\n`);
    const paths = existsSync(EXPLORER) ? [EXPLORER, csv] : [csv];

    const before = settledHeap();
    const t0 = performance.now();
    // In a frame of its own, so nothing of the parse stays reachable from this one.
    const book: AddressBook = ((p: string[]) => loadAddressBook({ extraPaths: p }))(paths);
    const loadMs = performance.now() - t0;
    const heapPerLabel = (settledHeap() - before) / book.size;

    const lower = Array.from({ length: LABELS }, (_, i) => addressOf(i));
    const mixed = lower.map(mixedCase);
    const misses = Array.from({ length: LABELS }, (_, i) => addressOf(i + LABELS * 2));
    const chainOf = (i: number) => CHAINS[i % CHAINS.length] as string;
    const bare = new Map(lower.map((a) => [a, a]));

    const cases: Case[] = [
      { calls: lower, lookup: book.lookup },
      { calls: mixed, lookup: book.lookup },
      { calls: misses, lookup: book.lookup },
      { calls: lower, lookup: (_c, a) => bare.get(a) },
    ];
    timePerCall(cases, chainOf); // warm-up
    const [hits, checksummed, missed, baseline] = timePerCall(cases, chainOf) as [
      { medianNs: number; found: number },
      { medianNs: number; found: number },
      { medianNs: number; found: number },
      { medianNs: number; found: number },
    ];

    const result = {
      labels: book.size,
      sources: book.sources.length,
      loadMs: Math.round(loadMs),
      heapBytesPerLabel: Math.round(heapPerLabel),
      heapMbFor100k: Math.round((heapPerLabel * 100_000) / 1e5) / 10,
      lookupNs: {
        hitLowerCase: Math.round(hits.medianNs),
        hitMixedCase: Math.round(checksummed.medianNs),
        miss: Math.round(missed.medianNs),
        bareMapGet: Math.round(baseline.medianNs),
      },
      ratioToBareMap: Math.round((hits.medianNs / baseline.medianNs) * 100) / 100,
      found: { hits: hits.found, mixed: checksummed.found, misses: missed.found },
      target: 'lookup median ≤ 1000 ns and heap ≤ 300 bytes per label with 100 k labels',
      met: Math.max(hits.medianNs, checksummed.medianNs, missed.medianNs) <= 1000 && heapPerLabel <= 300,
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
