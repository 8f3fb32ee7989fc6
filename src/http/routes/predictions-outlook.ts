import type { SupportedSymbols } from '../../modules/identifiers/index.ts';
import type { SymbolProvenance } from '../../modules/predictions/index.ts';
import { AppError, errorCatalogue, validationError } from '../../shared/errors.ts';
import type { NormalizationLog } from '../normalization-header.ts';
import { MAX_OUTLOOK_SYMBOLS } from './predictions-outlook.schemas.ts';

/** What the batch needs of the predictions service: one symbol's outlook bytes and where they stand. */
export interface SymbolOutlooks {
  symbolOutlook(symbol: string): { body: Buffer; provenance: SymbolProvenance };
}

/** One entry of a batch as asked: the text sent and the supported symbol it names (none: unsupported). */
interface Entry {
  requested: string;
  symbol: string | undefined;
}

/**
 * The entries of `symbols=`: split on commas, blanks skipped, each normalized to the supported set, duplicates
 * (after normalization) answered once, in the order given. More than `MAX_OUTLOOK_SYMBOLS` entries, an entry
 * longer than a symbol can be, or nothing but separators is a 400 naming it. An unsupported entry gets its own
 * error entry — or, with `strict`, makes the whole request a 400 `unsupported_symbol` naming it.
 */
export function outlookEntries(
  text: string,
  options: { strict?: boolean; symbols: SupportedSymbols; log: NormalizationLog },
): Entry[] {
  const given = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (given.length === 0) throw validationError([{ pointer: '/query/symbols', message: 'names no symbol' }]);
  if (given.length > MAX_OUTLOOK_SYMBOLS)
    throw validationError([
      {
        pointer: '/query/symbols',
        message: `names ${given.length} symbols; at most ${MAX_OUTLOOK_SYMBOLS} per request`,
      },
    ]);
  const tooLong = given.find((part) => part.length > 40);
  if (tooLong !== undefined)
    throw validationError([
      {
        pointer: '/query/symbols',
        message: `entry ${JSON.stringify(`${tooLong.slice(0, 40)}…`)} is longer than 40 characters`,
      },
    ]);
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (const requested of given) {
    let symbol: string | undefined;
    try {
      symbol = options.symbols.normalize(requested, { strict: true, param: 'symbols' }).value;
    } catch (error) {
      if (options.strict || !(error instanceof AppError) || error.code !== 'unsupported_symbol') throw error;
    }
    const key = symbol ?? `?${requested}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (symbol !== undefined) options.log.add('symbols', requested, symbol);
    entries.push({ requested, symbol });
  }
  return entries;
}

const unsupported = errorCatalogue.unsupported_symbol;
const OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const CLOSE_ENTRY = Buffer.from('}');
const CLOSE = Buffer.from(']}');

/**
 * The batch body: `{ data: [entry, …] }`, each entry with the symbol's provenance (computed now) and its outlook
 * spliced in as the bytes the service keeps per refresh (no re-serialization of the outlooks).
 */
export function outlookBatchBody(entries: readonly Entry[], service: SymbolOutlooks): Buffer {
  const parts: Buffer[] = [OPEN];
  entries.forEach((entry, i) => {
    if (i > 0) parts.push(COMMA);
    if (entry.symbol === undefined) {
      parts.push(
        Buffer.from(
          JSON.stringify({
            requested: entry.requested,
            symbol: null,
            error: {
              status: unsupported.status,
              code: 'unsupported_symbol',
              title: unsupported.title,
              detail: `${JSON.stringify(entry.requested)} is not a supported symbol (GET /api/market-data lists them)`,
            },
          }),
        ),
      );
      return;
    }
    const { body, provenance } = service.symbolOutlook(entry.symbol);
    const head = JSON.stringify({
      requested: entry.requested,
      symbol: entry.symbol,
      source: provenance.source,
      asOf: provenance.asOf === null ? null : new Date(provenance.asOf).toISOString(),
      stale: provenance.stale,
      backfilling: provenance.backfilling,
    });
    parts.push(Buffer.from(`${head.slice(0, -1)},"outlook":`), body, CLOSE_ENTRY);
  });
  parts.push(CLOSE);
  return Buffer.concat(parts);
}
