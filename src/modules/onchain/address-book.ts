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
 * Storage is one `Map` keyed by the lower-case address, holding the label itself (or, for an address labelled
 * on several chains, a short list); the strings a label shares with others (chain, exchange, source, version)
 * are interned, so a label costs its record, its address, its tag and a map entry — about 200 bytes on the
 * heap, bound 300 (docs/labels.md). A lookup is one `Map` read (two for a checksummed address).
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

const UPPER_HEX = /[A-F]/;

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

function computeCoverage(all: readonly Label[]): LabelCoverage {
  const perExchange = new Map<string, Map<string, number>>();
  const perChain = new Map<string, Set<string> & { addresses?: number }>();
  for (const label of all) {
    let counts = perExchange.get(label.exchange);
    if (!counts) {
      counts = new Map();
      perExchange.set(label.exchange, counts);
    }
    counts.set(label.chain, (counts.get(label.chain) ?? 0) + 1);
    let chain = perChain.get(label.chain);
    if (!chain) {
      chain = new Set();
      perChain.set(label.chain, chain);
    }
    chain.add(label.exchange);
    chain.addresses = (chain.addresses ?? 0) + 1;
  }
  const byName =
    <T>(key: (t: T) => string) =>
    (a: T, b: T) =>
      key(a) < key(b) ? -1 : 1;
  const chains = [...perChain]
    .map(([chain, set]) => ({ chain, addresses: set.addresses ?? 0, exchanges: set.size }))
    .sort(byName((c) => c.chain));
  const exchanges = [...perExchange]
    .map(([exchange, counts]) => {
      const list = [...counts]
        .map(([chain, addresses]) => ({ chain, addresses }))
        .sort(byName((c) => c.chain));
      return { exchange, addresses: list.reduce((n, c) => n + c.addresses, 0), chains: list };
    })
    .sort(byName((e) => e.exchange));
  return { exchanges, chains };
}

/**
 * Labels by address: one label, or (an address labelled on several chains, as exchanges reuse their EVM
 * addresses) a short list. One `Map` read answers a lookup on any chain.
 */
type Slot = Label | Label[];

function onChain(slot: Slot | undefined, chain: string): Label | undefined {
  if (slot === undefined) return undefined;
  if (!Array.isArray(slot)) return slot.chain === chain ? slot : undefined;
  for (const label of slot) if (label.chain === chain) return label;
  return undefined;
}

/** Merges label sets in order (later wins per chain+address); duplicates inside one set are problems. */
export function createAddressBook(sets: LabelSet[]): AddressBook {
  const byAddress = new Map<string, Slot>();
  const problems: LabelProblem[] = [];
  const intern = createInterner();
  const put = (label: Label): Label | undefined => {
    const slot = byAddress.get(label.address);
    if (slot === undefined) byAddress.set(label.address, label);
    else if (!Array.isArray(slot)) {
      if (slot.chain === label.chain) byAddress.set(label.address, label);
      else byAddress.set(label.address, [slot, label]);
      return slot.chain === label.chain ? slot : undefined;
    } else {
      const at = slot.findIndex((l) => l.chain === label.chain);
      const earlier = slot[at];
      if (at >= 0) slot[at] = label;
      else slot.push(label);
      return earlier;
    }
    return undefined;
  };
  for (const set of sets) {
    problems.push(...set.problems);
    // Only a label this set wrote itself can be a duplicate inside it.
    const written = new Set<Label>();
    for (const input of set.labels) {
      const exchange = intern(input.exchange);
      const label: Label = {
        exchange,
        chain: intern(input.chain),
        address: compact(input.address.toLowerCase()),
        tag: input.tag === input.exchange ? exchange : compact(input.tag),
        source: intern(input.source),
        version: intern(input.version),
      };
      const earlier = put(label);
      if (earlier && written.has(earlier) && earlier.exchange !== exchange) {
        problems.push({
          source: set.source,
          line: 0,
          message: `${label.address} on ${label.chain} is labelled both ${earlier.exchange} and ${exchange}; the later row wins`,
        });
      }
      written.add(label);
    }
  }
  const all = (): Label[] => {
    const out: Label[] = [];
    for (const slot of byAddress.values()) {
      if (Array.isArray(slot)) out.push(...slot);
      else out.push(slot);
    }
    return out.sort(byChainAndAddress);
  };
  const sorted = all();
  const digest = createHash('sha256');
  for (const l of sorted) digest.update(`${l.chain},${l.address},${l.exchange},${l.tag}\n`);
  const version = digest.digest('hex').slice(0, 12);
  const coverage = computeCoverage(sorted);
  const size = sorted.length;
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
    lookup(chain, address) {
      const label = onChain(byAddress.get(address), chain);
      if (label !== undefined) return label;
      // Checksummed (mixed-case) input: lower-cased only when the exact spelling missed and has capitals —
      // most parties of a transfer are unlabelled, so a miss must stay cheap.
      return UPPER_HEX.test(address) ? onChain(byAddress.get(address.toLowerCase()), chain) : undefined;
    },
    exchanges: () => [...exchanges],
    labels: (chain) => (chain ? all().filter((l) => l.chain === chain) : all()),
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
