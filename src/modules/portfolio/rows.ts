import { isDollar, normalizeAsset } from '../identifiers/index.ts';
import { canonicalDecimal, parseDecimal } from './decimal.ts';
import type { RawRow, RowField, RowProblem } from './types.ts';

/** A validated row, ready to store: decimals in canonical text, the asset as a ticker, times in ms. */
export interface ValidRow {
  asset: string;
  quantity: string;
  costBasis: string | null;
  costCurrency: string | null;
  acquiredAt: number | null;
  venue: string | null;
  note: string | null;
  externalId: string | null;
}

/** True when a stored row already holds exactly what an import brings for it (it is then left alone). */
export const sameContent = (a: ValidRow, b: ValidRow): boolean =>
  a.asset === b.asset &&
  a.quantity === b.quantity &&
  a.costBasis === b.costBasis &&
  a.costCurrency === b.costCurrency &&
  a.acquiredAt === b.acquiredAt &&
  a.venue === b.venue &&
  a.note === b.note;

const GENESIS = Date.UTC(2009, 0, 3);
const DAY = 86_400_000;

export interface ValidateOptions {
  now: number;
  /** Asset tickers known besides the built-in list (the supported symbols' bases). */
  extraAssets: readonly string[];
  /** Row indexes (0-based) to skip: rows that already failed the schema. */
  skip?: ReadonlySet<number>;
  /** CSV only: column headers and starting lines, so problems name them. */
  columns?: Partial<Record<RowField, string>>;
  lines?: readonly number[];
}

/**
 * Validates every row and collects every problem (all-or-nothing import: one problem anywhere refuses the
 * whole request, and the caller sees them all at once). Also refuses an `externalId` repeated inside one
 * import, which would otherwise make the result depend on row order.
 */
export function validateRows(
  rows: readonly RawRow[],
  options: ValidateOptions,
): { valid: ValidRow[]; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const valid: ValidRow[] = [];
  const externalIds = new Map<string, number>();
  rows.forEach((raw, index) => {
    if (options.skip?.has(index)) return;
    const problem = (field: RowField, message: string) => {
      const column = options.columns?.[field];
      problems.push({
        row: index + 1,
        pointer: `/rows/${index}/${field}`,
        field,
        message,
        ...(column !== undefined ? { column } : {}),
        ...(options.lines ? { line: options.lines[index] } : {}),
      });
    };
    const text = (field: RowField, max: number): string | null => {
      const value = raw[field];
      if (value === undefined || value === null) return null;
      const trimmed = value.trim();
      if (trimmed === '') return null;
      if (trimmed.length > max) {
        problem(field, `is longer than ${max} characters`);
        return null;
      }
      return trimmed;
    };

    let asset: string | undefined;
    const assetText = text('asset', 64);
    if (assetText === null) problem('asset', 'is required');
    else {
      asset = normalizeAsset(assetText, options.extraAssets)?.value;
      if (!asset) problem('asset', `${JSON.stringify(assetText)} is not a known asset`);
    }

    let quantity: string | undefined;
    const quantityText = text('quantity', 64);
    if (quantityText === null) problem('quantity', 'is required');
    else {
      const parsed = parseDecimal(quantityText);
      if (typeof parsed === 'string') problem('quantity', parsed);
      else if (parsed.lte(0))
        problem('quantity', 'must be greater than 0 (a row is a holding, not a disposal)');
      else quantity = canonicalDecimal(parsed);
    }

    let costBasis: string | null = null;
    const costText = text('costBasis', 64);
    if (costText !== null) {
      const parsed = parseDecimal(costText);
      if (typeof parsed === 'string') problem('costBasis', parsed);
      else if (parsed.isNegative()) problem('costBasis', 'must not be negative');
      else costBasis = canonicalDecimal(parsed);
    }

    let costCurrency: string | null = null;
    const currencyText = text('costCurrency', 16);
    if (currencyText !== null) {
      const upper = currencyText.toUpperCase();
      // Cost currencies taken as US dollars: USD and the stablecoins, as the market module prices them.
      if (!isDollar(upper))
        problem('costCurrency', `only USD cost bases are supported (got ${JSON.stringify(currencyText)})`);
      else costCurrency = 'USD';
    } else if (costBasis !== null) costCurrency = 'USD';

    let acquiredAt: number | null = null;
    const dateText = text('acquiredAt', 64);
    if (dateText !== null) {
      const parsed = parseAcquiredAt(dateText);
      if (parsed === undefined)
        problem(
          'acquiredAt',
          `${JSON.stringify(dateText)} is not a date and time Meridian reads (ISO 8601 is safest)`,
        );
      else if (parsed < GENESIS || parsed > options.now + DAY)
        problem('acquiredAt', 'is before 2009-01-03 or in the future');
      else acquiredAt = parsed;
    }

    const venue = text('venue', 64);
    const note = text('note', 500);
    const externalId = text('externalId', 128);
    if (externalId !== null) {
      const first = externalIds.get(externalId);
      if (first !== undefined)
        problem('externalId', `repeats the externalId of row ${first + 1} in this import`);
      else externalIds.set(externalId, index);
    }

    if (asset && quantity) {
      valid.push({ asset, quantity, costBasis, costCurrency, acquiredAt, venue, note, externalId });
    }
  });
  return { valid: problems.length ? [] : valid, problems };
}

const pad = (n: string | undefined) => Number(n ?? 0);

/**
 * Date and time as trackers write them, all read as UTC unless an offset is given: ISO 8601
 * (`2024-03-01T12:00:00Z`, `2024-03-01`), `2024-03-01 12:00[:00][ UTC]` (Koinly, Coinbase), `03/01/2024
 * 12:00:00` (month first, as CoinTracker writes it), `01.03.2024 12:00` (day first), and epoch seconds or
 * milliseconds. Undefined when the text is none of these or names an impossible date.
 */
export function parseAcquiredAt(text: string): number | undefined {
  const t = text.trim();
  if (/^\d{9,13}$/.test(t)) {
    const n = Number(t);
    return t.length <= 10 ? n * 1000 : n;
  }
  let m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i.exec(
      t,
    );
  if (m) {
    const [, y, mo, d, h, mi, s, ms, zone] = m;
    const base = utc(pad(y), pad(mo), pad(d), pad(h), pad(mi), pad(s), pad((ms ?? '').padEnd(3, '0')));
    if (base === undefined) return undefined;
    if (!zone || /^(z|utc)$/i.test(zone)) return base;
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offset = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    return base - sign * offset;
  }
  m = /^(\d{1,2})([/.])(\d{1,2})\2(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*(UTC|Z)?$/i.exec(t);
  if (m) {
    const [, a, sep, b, y, h, mi, s] = m;
    const [month, day] = sep === '/' ? [a, b] : [b, a];
    return utc(pad(y), pad(month), pad(day), pad(h), pad(mi), pad(s), 0);
  }
  return undefined;
}

function utc(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const value = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  return new Date(value).getUTCDate() === d ? value : undefined;
}
