/**
 * Explorer label exports: `{ "0xaddress": { "name": "Binance 14", "labels": ["binance", "cold-wallet"] } }`,
 * one file per explorer (the public etherscan-labels collection's `combinedAccountLabels.json`, MIT).
 *
 * Such a file labels every kind of account (DEX routers, bridges, token contracts, hacks); the address book
 * holds exchange wallets only. An account is an exchange wallet when one of its explorer tags is in
 * `EXCHANGE_TAGS` and it is not a contract the exchange deployed (a name with "Token", "Stablecoin" or
 * "Deployer", or the `token-contract` tag: a transfer to a token contract is not a deposit). Everything else
 * is counted as ignored, not reported as a problem: it is not an exchange label.
 */

/** Explorer tags that name a centralised exchange, as the explorer spells them (normalised afterwards). */
export const EXCHANGE_TAGS: ReadonlySet<string> = new Set([
  'binance',
  'bitfinex',
  'bithumb',
  'bitmex',
  'bitstamp',
  'bittrex',
  'bybit',
  'coinbase',
  'coinone',
  'crypto-com',
  'deribit',
  'ftx',
  'gate-io',
  'gemini',
  'hitbtc',
  'hotbit',
  'huobi',
  'korbit',
  'kraken',
  'kucoin',
  'liquid',
  'okex',
  'okx',
  'poloniex',
  'upbit',
  'zb-com',
]);

/** Explorer file name prefix → chain name (the names of the chain list). */
const EXPLORER_CHAINS: Record<string, string> = {
  etherscan: 'ethereum',
  bscscan: 'bsc',
  polygonscan: 'polygon',
  arbiscan: 'arbitrum',
  optimism: 'optimism',
  optimistic: 'optimism',
  avalanche: 'avalanche',
  snowtrace: 'avalanche',
  ftmscan: 'fantom',
  basescan: 'base',
};

const CONTRACT_NAME = /\b(token|stablecoin|deployer)\b/i;

/** The chain an explorer export is for, from its file name (`bscscan-accounts.json` → bsc). */
export function explorerChain(fileName: string): string | undefined {
  const prefix = /^([a-z]+)/i.exec(fileName)?.[1]?.toLowerCase();
  return prefix ? EXPLORER_CHAINS[prefix] : undefined;
}

interface ExplorerEntry {
  name?: unknown;
  labels?: unknown;
}

/** A JSON object whose first value is `{ name, labels: [...] }`. */
export function isExplorerExport(doc: unknown): doc is Record<string, ExplorerEntry> {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return false;
  for (const value of Object.values(doc)) {
    const entry = value as ExplorerEntry | null;
    return !!entry && typeof entry === 'object' && Array.isArray(entry.labels) && 'name' in entry;
  }
  return false;
}

export interface ExplorerRow {
  /** 1-based entry number in the file. */
  line: number;
  address: string;
  exchange: string;
  tag: string;
}

/** The exchange wallets of an explorer export, and how many accounts were not exchange wallets. */
export function explorerExchangeRows(doc: Record<string, ExplorerEntry>): {
  rows: ExplorerRow[];
  ignored: number;
} {
  const rows: ExplorerRow[] = [];
  let ignored = 0;
  let line = 0;
  for (const [address, entry] of Object.entries(doc)) {
    line++;
    const tags = Array.isArray(entry?.labels) ? entry.labels : [];
    const exchange = tags.find((t): t is string => typeof t === 'string' && EXCHANGE_TAGS.has(t));
    const name = typeof entry?.name === 'string' ? entry.name : '';
    // The explorer's index pages carry every tag at once; a row with all of them names no exchange.
    const exchangeTags = tags.filter((t) => typeof t === 'string' && EXCHANGE_TAGS.has(t)).length;
    if (!exchange || exchangeTags > 1 || CONTRACT_NAME.test(name) || tags.includes('token-contract')) {
      ignored++;
      continue;
    }
    rows.push({ line, address, exchange, tag: name });
  }
  return { rows, ignored };
}
