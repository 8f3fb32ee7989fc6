import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  type ExchangeNormalizer,
  type Label,
  type LabelProblem,
  type LabelSet,
  loadLabelPath,
} from './label-files.ts';

export {
  type ExchangeNormalizer,
  type Label,
  type LabelProblem,
  type LabelSet,
  parseCsvRows,
  parseLabelsCsv,
  parseLabelsJson,
} from './label-files.ts';

/**
 * The address book: exchange wallet labels (exchange, chain, address, tag, and where each came from) merged
 * from label files in order — the shipped defaults first, operator files (`MERIDIAN_LABELS_PATH`) after; a
 * later source overrides an earlier one for the same (chain, address). The book's `version` is a content hash
 * of the merged labels, so any change to the effective labels changes it.
 *
 * Storage is one `Map` per chain keyed by the lower-case address, holding the label itself; the strings a
 * label shares with others (chain, exchange, source, version) are interned, so a label costs its record, its
 * address, its tag and a map entry — measured at about 250 bytes on the heap (docs/onchain.md, "Labels").
 * Lookup is two `Map` reads.
 */
export interface AddressBook {
  readonly version: string;
  readonly sources: ReadonlyArray<LabelSourceSummary>;
  readonly problems: readonly LabelProblem[];
  readonly size: number;
  lookup(chain: string, address: string): Label | undefined;
  /** Canonical exchange names with at least one label, sorted. */
  exchanges(): string[];
  labels(chain?: string): Label[];
  /** Address counts per exchange and chain, computed once. */
  coverage(): LabelCoverage;
}

export interface LabelSourceSummary {
  source: string;
  version: string;
  /** Labels the file gave (before later files overrode any). */
  labels: number;
  problems: number;
  /** Entries that are not exchange labels (explorer exports). */
  ignored: number;
}

export interface LabelCoverage {
  exchanges: Array<{
    exchange: string;
    addresses: number;
    chains: Array<{ chain: string; addresses: number }>;
  }>;
  chains: Array<{ chain: string; addresses: number; exchanges: number }>;
}

const DEFAULT_LABELS_PATH = fileURLToPath(new URL('./default-labels.json', import.meta.url));

function createInterner(): (value: string) => string {
  const pool = new Map<string, string>();
  return (value) => {
    const known = pool.get(value);
    if (known !== undefined) return known;
    pool.set(value, value);
    return value;
  };
}

/**
 * A fresh flat copy of a string: a string built by concatenation (a CSV cell, a template) is a rope of
 * pieces until flattened, and flattening keeps the rope's head alive beside the copy; a label keeps neither.
 */
function compact(value: string): string {
  return Buffer.from(value, 'utf8').toString('utf8');
}

function byChainAndAddress(a: Label, b: Label): number {
  if (a.chain !== b.chain) return a.chain < b.chain ? -1 : 1;
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

function computeCoverage(byChain: Map<string, Map<string, Label>>): LabelCoverage {
  const perExchange = new Map<string, Map<string, number>>();
  const chains: LabelCoverage['chains'] = [];
  for (const [chain, map] of byChain) {
    const exchanges = new Set<string>();
    for (const label of map.values()) {
      exchanges.add(label.exchange);
      let counts = perExchange.get(label.exchange);
      if (!counts) {
        counts = new Map();
        perExchange.set(label.exchange, counts);
      }
      counts.set(chain, (counts.get(chain) ?? 0) + 1);
    }
    if (map.size) chains.push({ chain, addresses: map.size, exchanges: exchanges.size });
  }
  chains.sort((a, b) => (a.chain < b.chain ? -1 : 1));
  const exchanges = [...perExchange]
    .map(([exchange, counts]) => {
      const list = [...counts]
        .map(([chain, addresses]) => ({ chain, addresses }))
        .sort((a, b) => (a.chain < b.chain ? -1 : 1));
      return { exchange, addresses: list.reduce((n, c) => n + c.addresses, 0), chains: list };
    })
    .sort((a, b) => (a.exchange < b.exchange ? -1 : 1));
  return { exchanges, chains };
}

/** Merges label sets in order (later wins per chain+address); duplicates inside one set are problems. */
export function createAddressBook(sets: LabelSet[]): AddressBook {
  const byChain = new Map<string, Map<string, Label>>();
  const problems: LabelProblem[] = [];
  const intern = createInterner();
  for (const set of sets) {
    problems.push(...set.problems);
    // Only a label this set wrote itself can be a duplicate inside it.
    const written = new Set<Label>();
    for (const input of set.labels) {
      const chain = intern(input.chain);
      let map = byChain.get(chain);
      if (!map) {
        map = new Map();
        byChain.set(chain, map);
      }
      const exchange = intern(input.exchange);
      const address = compact(input.address.toLowerCase());
      const label: Label = {
        exchange,
        chain,
        address,
        tag: input.tag === input.exchange ? exchange : compact(input.tag),
        source: intern(input.source),
        version: intern(input.version),
      };
      const earlier = map.get(address);
      if (earlier && written.has(earlier) && earlier.exchange !== exchange) {
        problems.push({
          source: set.source,
          line: 0,
          message: `${address} on ${chain} is labelled both ${earlier.exchange} and ${exchange}; the later row wins`,
        });
      }
      written.add(label);
      map.set(address, label);
    }
  }
  const digest = createHash('sha256');
  let size = 0;
  for (const chain of [...byChain.keys()].sort()) {
    const map = byChain.get(chain) as Map<string, Label>;
    for (const address of [...map.keys()].sort()) {
      const l = map.get(address) as Label;
      digest.update(`${chain},${address},${l.exchange},${l.tag}\n`);
    }
    size += map.size;
  }
  const version = digest.digest('hex').slice(0, 12);
  const coverage = computeCoverage(byChain);
  const exchanges = coverage.exchanges.map((e) => e.exchange);
  return {
    version,
    sources: sets.map((s) => ({
      source: s.source,
      version: s.version,
      labels: s.labels.length,
      problems: s.problems.length,
      ignored: s.ignored ?? 0,
    })),
    problems,
    size,
    lookup: (chain, address) => byChain.get(chain)?.get(address.toLowerCase()),
    exchanges: () => [...exchanges],
    labels: (chain) => {
      const maps = chain ? [byChain.get(chain) ?? new Map<string, Label>()] : [...byChain.values()];
      return maps.flatMap((m) => [...m.values()]).sort(byChainAndAddress);
    },
    coverage: () => coverage,
  };
}

/** The shipped defaults followed by every operator path. */
export function loadAddressBook(
  options: { extraPaths?: string[]; normalize?: ExchangeNormalizer; includeDefaults?: boolean } = {},
): AddressBook {
  const sets: LabelSet[] = [];
  if (options.includeDefaults !== false) sets.push(...loadLabelPath(DEFAULT_LABELS_PATH, options.normalize));
  for (const path of options.extraPaths ?? []) sets.push(...loadLabelPath(path, options.normalize));
  return createAddressBook(sets);
}
