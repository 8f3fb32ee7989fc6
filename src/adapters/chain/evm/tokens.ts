import type { ChainTokenSpec } from '../../../shared/chain-token.ts';

/**
 * The stablecoins and major tokens indexed on each chain unless the chain's entry lists its own: USDT, USDC,
 * DAI, WETH and WBTC where they exist (on BNB Chain the bridged ETH and BTCB take the WETH/WBTC role). These
 * are the canonical contracts as the chains' explorers list them; decimals are not listed here because the
 * indexer reads them from each contract the first time it sees one of its transfers.
 */
const BY_CHAIN: Record<string, Array<[symbol: string, address: string]>> = {
  ethereum: [
    ['USDT', '0xdac17f958d2ee523a2206206994597c13d831ec7'],
    ['USDC', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'],
    ['DAI', '0x6b175474e89094c44da98b954eedeac495271d0f'],
    ['WETH', '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'],
    ['WBTC', '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599'],
  ],
  arbitrum: [
    ['USDT', '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9'],
    ['USDC', '0xaf88d065e77c8cc2239327c5edb3a432268e5831'],
    ['DAI', '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1'],
    ['WETH', '0x82af49447d8a07e3bd95bd0d56f35241523fbab1'],
    ['WBTC', '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f'],
  ],
  optimism: [
    ['USDT', '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58'],
    ['USDC', '0x0b2c639c533813f4aa9d7837caf62653d097ff85'],
    ['DAI', '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1'],
    ['WETH', '0x4200000000000000000000000000000000000006'],
    ['WBTC', '0x68f180fcce6836688e9084f035309e29bf0a2095'],
  ],
  polygon: [
    ['USDT', '0xc2132d05d31c914a87c6611c10748aeb04b58e8f'],
    ['USDC', '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359'],
    ['DAI', '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063'],
    ['WETH', '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619'],
    ['WBTC', '0x1bfd67037b42cf73acf2047067bd4f2c47d9bfd6'],
  ],
  bsc: [
    ['USDT', '0x55d398326f99059ff775485246999027b3197955'],
    ['USDC', '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d'],
    ['DAI', '0x1af3f329e8be154074d8769d1ffa4ee058b1dbc3'],
    ['ETH', '0x2170ed0880ac9a755fd29b2688956bd959f933f8'],
    ['BTCB', '0x7130d2a12b9bcbfae4f2634d864a1ee1ce3ead9c'],
  ],
  base: [
    ['USDC', '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'],
    ['DAI', '0x50c5725949a6f0c72e6c4a641f24049a917db0cb'],
    ['WETH', '0x4200000000000000000000000000000000000006'],
  ],
  avalanche: [
    ['USDT', '0x9702230a8ea53601f5cd2dc00fdbc13d4df4a8c7'],
    ['USDC', '0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e'],
    ['DAI', '0xd586e7f844cea2f87f50152665bcbc2c279d8d70'],
    ['WETH', '0x49d5c2bdffac6ce2bfdb6640f4f80f226bc10bab'],
    ['WBTC', '0x50b7545627a5162f82a992c33b87adc75187b218'],
  ],
};

/** The built-in token list of a chain by name; empty for a chain without one (list the tokens in its entry). */
export function defaultTokens(chain: string): ChainTokenSpec[] {
  return (BY_CHAIN[chain] ?? []).map(([symbol, address]) => ({ symbol, address }));
}

/** The chains with a built-in token list. */
export const chainsWithDefaultTokens = (): string[] => Object.keys(BY_CHAIN);
