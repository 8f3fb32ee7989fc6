import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPresent } from '../../../../test/harness/shared-data.ts';
import { chainsWithDefaultTokens, defaultTokens } from './tokens.ts';

const EXPLORER = resolve(process.cwd(), '../shared/data/labels/etherscan-labels');
const present = sharedDataPresent('built-in token addresses against explorer labels', EXPLORER);

/** The explorer export of each chain that has one (Base has none). */
const FILES: Record<string, string> = {
  ethereum: 'etherscan',
  arbitrum: 'arbiscan',
  optimism: 'optimism',
  polygon: 'polygonscan',
  avalanche: 'avalanche',
  bsc: 'bscscan',
};
/** Words an explorer's name for the token contract must contain (any of them). */
const NAMES: Record<string, string[]> = {
  USDT: ['usdt', 'tether', 'busd-t'], // BscScan names Binance-Peg USDT "BUSD-T Stablecoin"
  USDC: ['usdc', 'usd coin'],
  DAI: ['dai'],
  WETH: ['weth', 'wrapped ether'],
  WBTC: ['wbtc', 'wrapped btc'],
  ETH: ['eth'],
  BTCB: ['btcb'],
};
const TOKEN_TAGS = ['stablecoin', 'token-contract', 'bridged-token', 'binance-pegged', 'wrapped-bitcoin'];

describe.skipIf(!present)('built-in token addresses, checked against the public explorer labels', () => {
  it('every one the explorers list is named as that token or tagged as a token contract; none as anything else', () => {
    const confirmed: string[] = [];
    const unlisted: string[] = [];
    for (const chain of chainsWithDefaultTokens()) {
      const file = FILES[chain] ? resolve(EXPLORER, `${FILES[chain]}-accounts.json`) : undefined;
      const labels: Record<string, { name: string; labels: string[] }> =
        file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
      for (const token of defaultTokens(chain)) {
        const entry = labels[token.address];
        const where = `${chain} ${token.symbol} ${token.address}`;
        if (!entry) {
          unlisted.push(where);
          continue;
        }
        const named = NAMES[token.symbol]!.some((word) => entry.name.toLowerCase().includes(word));
        const tagged = entry.labels.some((tag) => TOKEN_TAGS.includes(tag));
        expect(
          named || (entry.name === '' && tagged),
          `${where}: explorer says ${JSON.stringify(entry)}`,
        ).toBe(true);
        confirmed.push(where);
      }
    }
    // 22 of the 33 confirmed by an explorer; the other 11 are absent from the exports (all of Base, which has
    // none), not contradicted. A change to the list or to the exports shows up here.
    expect(confirmed).toHaveLength(22);
    expect(unlisted).toHaveLength(11);
  });
});
