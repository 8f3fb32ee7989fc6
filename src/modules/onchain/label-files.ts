import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { normalizeExchange } from '../identifiers/index.ts';
import { explorerChain, explorerExchangeRows, isExplorerExport } from './explorer-labels.ts';

/**
 * Label files: the formats the address book reads, one file at a time, each into a `LabelSet` with its
 * provenance (the file and its version) and the rows it could not use.
 *
 * - JSON: `{ "version": "…", "labels": [{ "exchange", "chain"?, "address", "tag"? }] }` or a bare array.
 * - Explorer exports: `{ "0xaddress": { "name": "Binance 14", "labels": ["binance", …] } }`, the chain from
 *   the file name (`etherscan-accounts.json` → ethereum; explorer-labels.ts).
 * - CSV with a header row. Columns by name (case-insensitive): `address` (required), `exchange`,
 *   `chain`, `tag` / `name tag` / `label` / `name`; other columns are ignored. Without an `exchange`
 *   column the exchange is the file name (`binance.csv`), without a `chain` column the chain is the parent
 *   folder when it names a known chain (`labels/ethereum/okx.csv`), else `ethereum`. This reads
 *   Etherscan label exports (`,Address,Name Tag,Balance,Txn Count`) as they are.
 *
 * A file's version is its declared `version` (JSON), else `<commit>@<date>` from a `SOURCE` file beside it,
 * else a content hash. A row that cannot be used is reported as a problem with its source and line number —
 * never silently dropped.
 */
export interface Label {
  exchange: string;
  chain: string;
  /** Lower-case 0x address. */
  address: string;
  tag: string;
  /** The file the label came from (its path) and that file's version: the label's provenance. */
  source: string;
  version: string;
}

export interface LabelProblem {
  source: string;
  /** 1-based line (CSV) or 1-based entry number (JSON); 0 for the whole source. */
  line: number;
  message: string;
}

export interface LabelSet {
  source: string;
  /** Declared version (JSON `version`), `<commit>@<date>` from a `SOURCE` file beside it, or a content hash. */
  version: string;
  labels: Label[];
  problems: LabelProblem[];
  /** Entries that are not exchange labels (explorer exports label every kind of account). */
  ignored?: number;
}

/** Turns a label file's exchange spelling into the canonical name (default: the identifiers module's). */
export type ExchangeNormalizer = (name: string) => string;

/** Known exchanges and their aliases by canonical name; any other name in plain form (lower case). */
export const normalizeLabelExchange: ExchangeNormalizer = (name) => normalizeExchange(name).value;

const KNOWN_CHAINS = ['ethereum', 'arbitrum', 'optimism', 'base', 'polygon', 'bsc', 'avalanche', 'fantom'];

export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CHAIN = /^[a-z0-9][a-z0-9-]*$/;

export interface RowInput {
  exchange?: string;
  chain?: string;
  address?: string;
  tag?: string;
}

export function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

export function validateRow(
  input: RowInput,
  ctx: { source: string; version: string; line: number; normalize: ExchangeNormalizer },
): Label | LabelProblem {
  const problem = (message: string): LabelProblem => ({ source: ctx.source, line: ctx.line, message });
  const address = input.address?.trim() ?? '';
  if (!address) return problem('address is missing');
  if (!ADDRESS.test(address))
    return problem(`address ${JSON.stringify(address)} is not a 0x-prefixed 20-byte hex address`);
  const rawExchange = input.exchange?.trim() ?? '';
  if (!rawExchange) return problem('exchange is missing');
  const exchange = ctx.normalize(rawExchange);
  if (!/^[a-z0-9][a-z0-9 ._-]*$/.test(exchange))
    return problem(`exchange ${JSON.stringify(rawExchange)} is not a valid name`);
  const chain = (input.chain?.trim() || 'ethereum').toLowerCase();
  if (!CHAIN.test(chain)) return problem(`chain ${JSON.stringify(input.chain)} is not a valid chain name`);
  const tag = input.tag?.trim() || exchange;
  return { exchange, chain, address: address.toLowerCase(), tag, source: ctx.source, version: ctx.version };
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
  /** The version to record when the file declares none (default: a content hash of the file). */
  version?: string;
}

export function parseLabelsCsv(text: string, options: ParseOptions): LabelSet {
  const normalize = options.normalize ?? normalizeLabelExchange;
  const version = options.version ?? hash(text);
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
    return { source: options.source, version, labels, problems };
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
    return { source: options.source, version, labels, problems };
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
      { source: options.source, version, line: row.line, normalize },
    );
    if ('message' in result) problems.push(result);
    else labels.push(result);
  }
  return { source: options.source, version, labels, problems };
}

function explorerSet(
  doc: Parameters<typeof explorerExchangeRows>[0],
  options: ParseOptions & { version: string },
): LabelSet {
  const normalize = options.normalize ?? normalizeLabelExchange;
  const { source, version } = options;
  const chain = options.defaultChain;
  if (!chain) {
    const message =
      'an explorer export names no chain: call it <explorer>-accounts.json (etherscan, bscscan, …) or put it in a folder named for the chain';
    return { source, version, labels: [], problems: [{ source, line: 0, message }] };
  }
  const { rows, ignored } = explorerExchangeRows(doc);
  const labels: Label[] = [];
  const problems: LabelProblem[] = [];
  for (const row of rows) {
    const result = validateRow(
      { address: row.address, exchange: row.exchange, chain, tag: row.tag },
      { source, version, line: row.line, normalize },
    );
    if ('message' in result) problems.push(result);
    else labels.push(result);
  }
  return { source, version, labels, problems, ignored };
}

/**
 * A JSON label file: `{ "version", "labels": [...] }`, a bare array, or an explorer export
 * (`{ "0xaddress": { "name", "labels": [...] } }`: its exchange wallets, see explorer-labels.ts).
 */
export function parseLabelsJson(text: string, options: ParseOptions): LabelSet {
  const normalize = options.normalize ?? normalizeLabelExchange;
  const problems: LabelProblem[] = [];
  const labels: Label[] = [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const version = options.version ?? hash(text);
    problems.push({
      source: options.source,
      line: 0,
      message: `not valid JSON: ${(error as Error).message}`,
    });
    return { source: options.source, version, labels, problems };
  }
  const obj = doc as { version?: unknown; labels?: unknown };
  if (isExplorerExport(doc)) return explorerSet(doc, { ...options, version: options.version ?? hash(text) });
  const entries = Array.isArray(doc) ? doc : Array.isArray(obj?.labels) ? obj.labels : undefined;
  const version =
    !Array.isArray(doc) && typeof obj?.version === 'string' ? obj.version : (options.version ?? hash(text));
  if (!entries) {
    problems.push({
      source: options.source,
      line: 0,
      message: 'expected an array, an object with a "labels" array, or an explorer export',
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
      { source: options.source, version, line, normalize },
    );
    if ('message' in result) problems.push(result);
    else labels.push(result);
  });
  return { source: options.source, version, labels, problems };
}

/**
 * The version of the files in a folder that carries a `SOURCE` file (`<commit> <date>`, as a vendored
 * snapshot of a public repository has): `<commit, 12 hex>@<date>`. Undefined without one.
 */
function folderVersion(folder: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(folder, 'SOURCE'), 'utf8').trim();
  } catch {
    return undefined;
  }
  const [commit, date] = text.split(/\s+/);
  if (!commit) return undefined;
  return date ? `${commit.slice(0, 12)}@${date}` : commit.slice(0, 12);
}

/** Reads one file or every .csv/.json file under a folder (sorted, recursive). */
export function loadLabelPath(path: string, normalize?: ExchangeNormalizer): LabelSet[] {
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
    defaultChain: explorerChain(basename(path)) ?? (KNOWN_CHAINS.includes(folder) ? folder : undefined),
    normalize,
    version: folderVersion(dirname(path)),
  };
  return extname(path).toLowerCase() === '.json'
    ? [parseLabelsJson(text, options)]
    : [parseLabelsCsv(text, options)];
}
