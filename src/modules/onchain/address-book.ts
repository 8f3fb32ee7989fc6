import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The address book: exchange wallet labels (exchange, chain, address, tag) from CSV or JSON files.
 *
 * Formats accepted:
 * - JSON: `{ "version": "…", "labels": [{ "exchange", "chain"?, "address", "tag"? }] }` or a bare array.
 * - CSV with a header row. Columns by name (case-insensitive): `address` (required), `exchange`,
 *   `chain`, `tag` / `name tag` / `label` / `name`; other columns are ignored. Without an `exchange`
 *   column the exchange is the file name (`binance.csv`), without a `chain` column the chain is the parent
 *   folder when it names a known chain (`labels/ethereum/okx.csv`), else `ethereum`. This reads
 *   Etherscan label exports (`,Address,Name Tag,Balance,Txn Count`) as they are.
 *
 * A row that cannot be used is reported as a problem with its source and line number — never silently
 * dropped. Later sources override earlier ones for the same (chain, address): the shipped defaults come
 * first, operator files after. The book's `version` is a content hash of the merged labels, so any change
 * to the effective labels changes it.
 */
export interface Label {
  exchange: string;
  chain: string;
  /** Lower-case 0x address. */
  address: string;
  tag: string;
  source: string;
}

export interface LabelProblem {
  source: string;
  /** 1-based line (CSV) or 1-based entry number (JSON); 0 for the whole source. */
  line: number;
  message: string;
}

export interface LabelSet {
  source: string;
  /** Declared version (JSON `version`) or a content hash of the file. */
  version: string;
  labels: Label[];
  problems: LabelProblem[];
}

export interface AddressBook {
  readonly version: string;
  readonly sources: ReadonlyArray<{ source: string; version: string; labels: number; problems: number }>;
  readonly problems: readonly LabelProblem[];
  readonly size: number;
  lookup(chain: string, address: string): Label | undefined;
  /** Canonical exchange names with at least one label, sorted. */
  exchanges(): string[];
  labels(chain?: string): Label[];
}

/** Turns a label file's exchange spelling into the canonical name (the symbols module supplies aliases). */
export type ExchangeNormalizer = (name: string) => string;

export const defaultExchangeNormalizer: ExchangeNormalizer = (name) =>
  name.trim().toLowerCase().replace(/\s+/g, ' ');

const KNOWN_CHAINS = ['ethereum', 'arbitrum', 'optimism', 'base', 'polygon', 'bsc', 'avalanche'];

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CHAIN = /^[a-z0-9][a-z0-9-]*$/;

const DEFAULT_LABELS_PATH = fileURLToPath(new URL('./default-labels.json', import.meta.url));

interface RowInput {
  exchange?: string;
  chain?: string;
  address?: string;
  tag?: string;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

function validateRow(
  input: RowInput,
  ctx: { source: string; line: number; normalize: ExchangeNormalizer },
): Label | LabelProblem {
  const problem = (message: string): LabelProblem => ({ source: ctx.source, line: ctx.line, message });
  const address = input.address?.trim() ?? '';
  if (!address) return problem('address is missing');
  if (!ADDRESS.test(address))
    return problem(`address ${JSON.stringify(address)} is not a 0x-prefixed 20-byte hex address`);
  const rawExchange = input.exchange?.trim() ?? '';
  if (!rawExchange) return problem('exchange is missing');
  let exchange: string;
  try {
    exchange = ctx.normalize(rawExchange);
  } catch {
    exchange = defaultExchangeNormalizer(rawExchange);
  }
  if (!/^[a-z0-9][a-z0-9 ._-]*$/.test(exchange))
    return problem(`exchange ${JSON.stringify(rawExchange)} is not a valid name`);
  const chain = (input.chain?.trim() || 'ethereum').toLowerCase();
  if (!CHAIN.test(chain)) return problem(`chain ${JSON.stringify(input.chain)} is not a valid chain name`);
  const tag = input.tag?.trim() || exchange;
  return { exchange, chain, address: address.toLowerCase(), tag, source: ctx.source };
}

/** RFC 4180 CSV: quoted fields with commas, doubled quotes, CRLF. Returns rows with their 1-based line. */
export function parseCsvRows(text: string): Array<{ line: number; cells: string[] }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let i = 0;
  const endRow = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += ch;
    i++;
  }
  if (cell !== '' || cells.length) endRow();
  return rows;
}

export interface ParseOptions {
  source: string;
  /** Used when the file has no exchange column (normally the file name). */
  defaultExchange?: string;
  /** Used when the file has no chain column (normally the parent folder). */
  defaultChain?: string;
  normalize?: ExchangeNormalizer;
}

export function parseLabelsCsv(text: string, options: ParseOptions): LabelSet {
  const normalize = options.normalize ?? defaultExchangeNormalizer;
  const rows = parseCsvRows(text.replace(/^\uFEFF/, ''));
  const problems: LabelProblem[] = [];
  const labels: Label[] = [];
  const header = rows.shift();
  if (!header) {
    problems.push({
      source: options.source,
      line: 0,
      message: 'the file is empty (a header row is required)',
    });
    return { source: options.source, version: hash(text), labels, problems };
  }
  const names = header.cells.map((c) => c.trim().toLowerCase());
  const col = (...candidates: string[]) => names.findIndex((n) => candidates.includes(n));
  const addressCol = col('address');
  const exchangeCol = col('exchange');
  const chainCol = col('chain');
  const tagCol = col('tag', 'name tag', 'label', 'name');
  if (addressCol < 0) {
    problems.push({
      source: options.source,
      line: header.line,
      message: 'the header has no "address" column',
    });
    return { source: options.source, version: hash(text), labels, problems };
  }
  for (const row of rows) {
    if (row.cells.length !== names.length) {
      problems.push({
        source: options.source,
        line: row.line,
        message: `expected ${names.length} columns, found ${row.cells.length}`,
      });
      continue;
    }
    const at = (index: number) => (index >= 0 ? row.cells[index] : undefined);
    const result = validateRow(
      {
        address: at(addressCol),
        exchange: exchangeCol >= 0 ? at(exchangeCol) : options.defaultExchange,
        chain: chainCol >= 0 ? at(chainCol) : options.defaultChain,
        tag: at(tagCol),
      },
      { source: options.source, line: row.line, normalize },
    );
    if ('message' in result) problems.push(result);
    else labels.push(result);
  }
  return { source: options.source, version: hash(text), labels, problems };
}

export function parseLabelsJson(text: string, options: ParseOptions): LabelSet {
  const normalize = options.normalize ?? defaultExchangeNormalizer;
  const problems: LabelProblem[] = [];
  const labels: Label[] = [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    problems.push({
      source: options.source,
      line: 0,
      message: `not valid JSON: ${(error as Error).message}`,
    });
    return { source: options.source, version: hash(text), labels, problems };
  }
  const obj = doc as { version?: unknown; labels?: unknown };
  const entries = Array.isArray(doc) ? doc : Array.isArray(obj?.labels) ? obj.labels : undefined;
  const version = !Array.isArray(doc) && typeof obj?.version === 'string' ? obj.version : hash(text);
  if (!entries) {
    problems.push({
      source: options.source,
      line: 0,
      message: 'expected an array or an object with a "labels" array',
    });
    return { source: options.source, version, labels, problems };
  }
  entries.forEach((entry: unknown, index: number) => {
    const line = index + 1;
    if (!entry || typeof entry !== 'object') {
      problems.push({ source: options.source, line, message: 'entry is not an object' });
      return;
    }
    const e = entry as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const result = validateRow(
      {
        address: str(e.address),
        exchange: str(e.exchange) ?? options.defaultExchange,
        chain: str(e.chain) ?? options.defaultChain,
        tag: str(e.tag) ?? str(e.name),
      },
      { source: options.source, line, normalize },
    );
    if ('message' in result) problems.push(result);
    else labels.push(result);
  });
  return { source: options.source, version, labels, problems };
}

/** Reads one file or every .csv/.json file under a folder (sorted, recursive). */
function loadLabelPath(path: string, normalize?: ExchangeNormalizer): LabelSet[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch (error) {
    return [
      {
        source: path,
        version: 'missing',
        labels: [],
        problems: [{ source: path, line: 0, message: `cannot read: ${(error as Error).message}` }],
      },
    ];
  }
  if (stat.isDirectory()) {
    return readdirSync(path)
      .sort()
      .flatMap((name) => {
        const child = join(path, name);
        if (statSync(child).isDirectory() || /\.(csv|json)$/i.test(name))
          return loadLabelPath(child, normalize);
        return [];
      });
  }
  const text = readFileSync(path, 'utf8');
  const folder = basename(dirname(path)).toLowerCase();
  const options: ParseOptions = {
    source: path,
    defaultExchange: basename(path, extname(path)),
    defaultChain: KNOWN_CHAINS.includes(folder) ? folder : undefined,
    normalize,
  };
  return extname(path).toLowerCase() === '.json'
    ? [parseLabelsJson(text, options)]
    : [parseLabelsCsv(text, options)];
}

/** Merges label sets in order (later wins per chain+address); duplicates inside one set are problems. */
export function createAddressBook(sets: LabelSet[]): AddressBook {
  const byKey = new Map<string, Label>();
  const problems: LabelProblem[] = [];
  for (const set of sets) {
    problems.push(...set.problems);
    const seen = new Map<string, Label>();
    for (const label of set.labels) {
      const key = `${label.chain}:${label.address}`;
      const earlier = seen.get(key);
      if (earlier && earlier.exchange !== label.exchange) {
        problems.push({
          source: set.source,
          line: 0,
          message: `${label.address} on ${label.chain} is labelled both ${earlier.exchange} and ${label.exchange}; the later row wins`,
        });
      }
      seen.set(key, label);
      byKey.set(key, label);
    }
  }
  const all = [...byKey.values()].sort((a, b) =>
    a.chain === b.chain ? a.address.localeCompare(b.address) : a.chain.localeCompare(b.chain),
  );
  const version = hash(all.map((l) => `${l.chain},${l.address},${l.exchange},${l.tag}`).join('\n'));
  const exchanges = [...new Set(all.map((l) => l.exchange))].sort();
  return {
    version,
    sources: sets.map((s) => ({
      source: s.source,
      version: s.version,
      labels: s.labels.length,
      problems: s.problems.length,
    })),
    problems,
    size: all.length,
    lookup: (chain, address) => byKey.get(`${chain}:${address.toLowerCase()}`),
    exchanges: () => [...exchanges],
    labels: (chain) => (chain ? all.filter((l) => l.chain === chain) : [...all]),
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
