import { readFileSync } from 'node:fs';

/**
 * `MERIDIAN_CHAINS`: the EVM chains the indexer follows, one indexer per entry. Given inline as a JSON array or
 * as the path of a JSON file holding one. Unset, the single-chain settings (MERIDIAN_CHAIN_SOURCE, …) describe
 * the one chain (app/onchain.ts `resolveChains`).
 */
import type { ChainTokenSpec } from '../shared/chain-token.ts';

export type { ChainTokenSpec };

export interface ChainSpec {
  /** The chain's name in labels, stored flows and the API (`ethereum`, `arbitrum`, `bsc`, …). */
  name: string;
  /** EIP-155 chain id; when given, the node must report it (checked before indexing). */
  chainId?: number;
  /** `simulated` or an http(s) JSON-RPC URL. */
  rpcUrl: string;
  confirmations: number;
  nativeAsset: string;
  /** Unset = the built-in list for the chain's name (src/adapters/chain/evm/tokens.ts). */
  tokens?: ChainTokenSpec[];
}

const NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;
const SYMBOL = /^[A-Za-z0-9.]{1,20}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function entryProblem(index: number, message: string): never {
  throw new Error(`MERIDIAN_CHAINS entry ${index + 1}: ${message}`);
}

function parseEntry(raw: unknown, index: number): ChainSpec {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) entryProblem(index, 'is not an object');
  const e = raw as Record<string, unknown>;
  const known = ['name', 'chainId', 'rpcUrl', 'confirmations', 'nativeAsset', 'tokens'];
  for (const key of Object.keys(e))
    if (!known.includes(key)) entryProblem(index, `unknown field "${key}" (known: ${known.join(', ')})`);
  const name = typeof e.name === 'string' ? e.name.trim().toLowerCase() : '';
  if (!NAME.test(name)) entryProblem(index, 'name must be a lower-case chain name such as ethereum or bsc');
  const rpcUrl = typeof e.rpcUrl === 'string' ? e.rpcUrl.trim() : '';
  const httpUrl = URL.canParse(rpcUrl) && ['http:', 'https:'].includes(new URL(rpcUrl).protocol);
  if (rpcUrl !== 'simulated' && !httpUrl)
    entryProblem(index, `${name}: rpcUrl must be "simulated" or an http(s) URL`);
  if (e.chainId !== undefined && !(Number.isSafeInteger(e.chainId) && (e.chainId as number) > 0))
    entryProblem(index, `${name}: chainId must be a positive integer`);
  const confirmations = e.confirmations ?? (rpcUrl === 'simulated' ? 0 : 12);
  if (!Number.isInteger(confirmations) || (confirmations as number) < 0 || (confirmations as number) > 1000)
    entryProblem(index, `${name}: confirmations must be an integer from 0 to 1000`);
  const nativeAsset = e.nativeAsset ?? 'ETH';
  if (typeof nativeAsset !== 'string' || !SYMBOL.test(nativeAsset))
    entryProblem(index, `${name}: nativeAsset must be a symbol such as ETH or BNB`);
  let tokens: ChainTokenSpec[] | undefined;
  if (e.tokens !== undefined) {
    if (!Array.isArray(e.tokens)) entryProblem(index, `${name}: tokens must be an array`);
    tokens = (e.tokens as unknown[]).map((t, i) => {
      const token = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
      const where = `${name}: token ${i + 1}`;
      if (typeof token.symbol !== 'string' || !SYMBOL.test(token.symbol))
        entryProblem(index, `${where}: symbol must be a symbol such as USDT`);
      if (typeof token.address !== 'string' || !ADDRESS.test(token.address))
        entryProblem(index, `${where}: address must be a 0x address of 40 hex digits`);
      const d = token.decimals;
      if (d !== undefined && !(Number.isInteger(d) && (d as number) >= 0 && (d as number) <= 36))
        entryProblem(index, `${where}: decimals must be an integer from 0 to 36`);
      return {
        symbol: (token.symbol as string).toUpperCase(),
        address: (token.address as string).toLowerCase(),
        ...(d === undefined ? {} : { decimals: d as number }),
      };
    });
  }
  return {
    name,
    ...(e.chainId === undefined ? {} : { chainId: e.chainId as number }),
    rpcUrl,
    confirmations: confirmations as number,
    nativeAsset: nativeAsset.toUpperCase(),
    ...(tokens ? { tokens } : {}),
  };
}

/** Parses the variable's text: a JSON array, or a path to a JSON file with one. Unset → undefined. */
export function parseChains(raw: string | undefined): ChainSpec[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const text = raw.trim();
  let json: string;
  if (text.startsWith('[')) json = text;
  else {
    try {
      json = readFileSync(text, 'utf8');
    } catch (error) {
      throw new Error(
        `MERIDIAN_CHAINS: neither a JSON array nor a readable file (${(error as Error).message})`,
      );
    }
  }
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch (error) {
    throw new Error(`MERIDIAN_CHAINS is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(list) || list.length === 0)
    throw new Error('MERIDIAN_CHAINS must be a non-empty JSON array of chains');
  const chains = list.map(parseEntry);
  const seen = new Set<string>();
  for (const c of chains) {
    if (seen.has(c.name)) throw new Error(`MERIDIAN_CHAINS names ${c.name} twice`);
    seen.add(c.name);
  }
  return chains;
}
