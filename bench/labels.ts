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
 * 2. lookup — median time per `lookup(chain, address)` over batches of 10 k calls: hits given lower-case,
 *    hits given checksummed (mixed-case) addresses, misses; against a bare `Map.get` of the same lower-case
 *    keys in the same run (the ratio is what the book adds). Target: ≤ 1 µs median with 100 k loaded.
 */
const LABELS = Number(process.env.BENCH_LABELS ?? 100_000);
const BATCH = 10_000;
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

function timePerCall(
  calls: string[],
  chainOf: (i: number) => string,
  lookup: (c: string, a: string) => unknown,
) {
  const perCall: number[] = [];
  let found = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = (round * BATCH) % calls.length;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) {
      const k = (start + i) % calls.length;
      if (lookup(chainOf(k), calls[k] as string) !== undefined) found++;
    }
    perCall.push(Number(process.hrtime.bigint() - t0) / BATCH);
  }
  return { medianNs: median(perCall), found: found / ROUNDS };
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

    // Warm-up of every path, then the measured rounds.
    for (const calls of [lower, mixed, misses]) timePerCall(calls, chainOf, book.lookup);
    timePerCall(lower, chainOf, (_c, a) => bare.get(a));
    const hits = timePerCall(lower, chainOf, book.lookup);
    const checksummed = timePerCall(mixed, chainOf, book.lookup);
    const missed = timePerCall(misses, chainOf, book.lookup);
    const baseline = timePerCall(lower, chainOf, (_c, a) => bare.get(a));

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
      target: 'lookup median ≤ 1000 ns with 100 k labels',
      met: Math.max(hits.medianNs, checksummed.medianNs, missed.medianNs) <= 1000,
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
