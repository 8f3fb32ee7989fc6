import { mulberry32 } from '../../../shared/random.ts';
import { createHash } from 'node:crypto';
import type { Label } from '../../../modules/onchain/index.ts';
import type { ChainBlock, ChainSource, PriceSource, RawTransfer } from '../../../modules/onchain/index.ts';
import { type Clock, systemClock } from '../../../shared/clock.ts';
import { defaultTokens } from '../evm/tokens.ts';

export interface SimulatedChainOptions {
  chain?: string;
  /** The chain's native asset (ETH, BNB, …), priced by the market like any other. */
  nativeAsset?: string;
  /** Labelled wallets the simulated flows go to and come from. */
  labels: Label[];
  prices: PriceSource;
  clock?: Clock;
  seed?: number;
  blockTimeMs?: number;
  /** Time of block 0. Fixed by default so restarts see the same chain and resume from their checkpoint. */
  genesisMs?: number;
  /** Mean labelled transfers per block. */
  transfersPerBlock?: number;
}

/** Prices used only to size simulated amounts when the market has no price yet. */
const REFERENCE_USD: Record<string, number> = { ETH: 3000, BNB: 600, POL: 0.5, AVAX: 30 };

interface SimulatedAsset {
  asset: string;
  decimals: number;
  token: string | null;
  weight: number;
  /** Priced like the native asset (WETH of an ETH chain); otherwise a dollar stablecoin. */
  native: boolean;
}

/** The native asset, USDT, USDC and (on an ETH chain) WETH, at the chain's built-in token addresses. */
function assetsOf(chain: string, nativeAsset: string): SimulatedAsset[] {
  const address = (symbol: string) =>
    defaultTokens(chain).find((t) => t.symbol === symbol)?.address ??
    `0x${digest('token', chain, symbol).toString('hex').slice(0, 40)}`;
  const out: SimulatedAsset[] = [
    { asset: nativeAsset, decimals: 18, token: null, weight: 0.42, native: true },
    // BNB Chain's stablecoins have 18 decimals; elsewhere 6.
    { asset: 'USDT', decimals: chain === 'bsc' ? 18 : 6, token: address('USDT'), weight: 0.3, native: false },
    { asset: 'USDC', decimals: chain === 'bsc' ? 18 : 6, token: address('USDC'), weight: 0.2, native: false },
  ];
  if (nativeAsset === 'ETH')
    out.push({ asset: 'WETH', decimals: 18, token: address('WETH'), weight: 0.08, native: true });
  else (out[0] as SimulatedAsset).weight = 0.5;
  return out;
}

function digest(...parts: Array<string | number>): Buffer {
  return createHash('sha256').update(parts.join(':')).digest();
}

/** The shared PRNG seeded from a digest: a deterministic stream per block. */
const rng = (seed: Buffer): (() => number) => mulberry32(seed.readUInt32LE(0));

/**
 * The embedded chain: a deterministic stream of blocks (one every 12 s by default) whose transfers are
 * deposits to and withdrawals from the labelled exchange wallets, plus some internal sweeps. Sizes are
 * drawn in USD (log-normal, median ≈ $12k, heavy tail) and converted into token units at the market price
 * of the block time, so USD values match the simulated market. Block n is a pure function of (seed, n)
 * except for that price, so a restart sees the same hashes and resumes from its checkpoint.
 */
export function createSimulatedChainSource(options: SimulatedChainOptions): ChainSource {
  const chain = options.chain ?? 'ethereum';
  const clock = options.clock ?? systemClock;
  const seed = options.seed ?? 1;
  const blockTime = options.blockTimeMs ?? 12_000;
  const genesis = options.genesisMs ?? Date.UTC(2024, 0, 1);
  const mean = options.transfersPerBlock ?? 2;
  const labels = options.labels.filter((l) => l.chain === chain);
  const nativeAsset = (options.nativeAsset ?? 'ETH').toUpperCase();
  const ASSETS = assetsOf(chain, nativeAsset);

  const head = () => Math.max(0, Math.floor((clock.now() - genesis) / blockTime));
  const hashOf = (n: number) =>
    n < 0 ? `0x${'0'.repeat(64)}` : `0x${digest('block', seed, chain, n).toString('hex')}`;
  const address = (r: () => number) =>
    `0x${Array.from({ length: 5 }, () =>
      Math.floor(r() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('')}`;

  async function nativePrice(atMs: number): Promise<number> {
    let price: number | null | undefined;
    try {
      price = await options.prices.usdPrice(nativeAsset, atMs);
    } catch {
      // No market price (yet): the simulation uses its reference price, as when the market has none.
    }
    return typeof price === 'number' && price > 0 ? price : (REFERENCE_USD[nativeAsset] ?? 1);
  }

  function transfersOf(n: number, native: number): RawTransfer[] {
    if (!labels.length) return [];
    const r = rng(digest('transfers', seed, chain, n));
    // Poisson-ish count around the mean.
    let count = 0;
    for (let i = 0; i < mean * 3; i++) if (r() < 1 / 3) count++;
    const out: RawTransfer[] = [];
    for (let i = 0; i < count; i++) {
      const label = labels[Math.floor(r() * labels.length)] as Label;
      const pick = r();
      let acc = 0;
      const asset =
        ASSETS.find((a) => {
          acc += a.weight;
          return pick < acc;
        }) ?? (ASSETS[0] as SimulatedAsset);
      // Log-normal USD size: median ~12k, sigma 1.6, capped at 50M.
      const gauss = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
      const usd = Math.min(50_000_000, Math.max(20, 12_000 * Math.exp(1.6 * gauss)));
      const units = usd / (asset.native ? native : 1);
      const shown = Math.min(asset.decimals, 6);
      const amountRaw =
        BigInt(Math.max(1, Math.round(units * 10 ** shown))) * 10n ** BigInt(asset.decimals - shown);
      const kind = r();
      const outsider = address(r);
      let from = outsider;
      let to = label.address;
      if (kind >= 0.5 && kind < 0.92) {
        from = label.address;
        to = outsider;
      } else if (kind >= 0.92) {
        const sameExchange = labels.filter(
          (l) => l.exchange === label.exchange && l.address !== label.address,
        );
        const other = sameExchange[Math.floor(r() * sameExchange.length)];
        from = label.address;
        to = other?.address ?? outsider;
      }
      out.push({
        txHash: `0x${digest('tx', seed, chain, n, i).toString('hex')}`,
        txIndex: i,
        logIndex: asset.token ? i : -1,
        from,
        to,
        asset: asset.asset,
        tokenAddress: asset.token,
        decimals: asset.decimals,
        amountRaw,
      });
    }
    return out;
  }

  return {
    chain,
    description: `simulated ${chain} (seed ${seed}; not a real chain)`,
    headNumber: async () => head(),
    blockHash: async (n) => (n <= head() ? hashOf(n) : undefined),
    async block(n, interest): Promise<ChainBlock | undefined> {
      if (n > head() || n < 0) return undefined;
      const timestampMs = genesis + n * blockTime;
      return {
        number: n,
        hash: hashOf(n),
        parentHash: hashOf(n - 1),
        timestampMs,
        transfers: transfersOf(n, await nativePrice(timestampMs)).filter(
          (t) => interest(t.from) || interest(t.to),
        ),
      };
    },
  };
}

/**
 * Exchange wallets for a simulated chain that no label file covers: a few per exchange at addresses derived
 * from (chain, exchange, n), tagged as simulated. They classify only that chain's simulated flows.
 */
export function simulatedLabels(chain: string, exchanges: readonly string[], perExchange = 3): Label[] {
  return exchanges.flatMap((exchange) =>
    Array.from({ length: perExchange }, (_, i) => ({
      exchange,
      chain,
      address: `0x${digest('wallet', chain, exchange, i).toString('hex').slice(0, 40)}`,
      tag: `Simulated ${exchange} wallet ${i + 1}`,
      source: 'simulated',
      version: 'simulated',
    })),
  );
}
