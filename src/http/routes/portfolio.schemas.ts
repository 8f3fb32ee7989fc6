import { Type } from 'typebox';
import { MAX_IMPORT_ROWS } from '../../modules/portfolio/index.ts';
import { ProblemSchema } from '../schemas.ts';

/** The portfolio API's schemas: import bodies and answers, holdings, stored rows, the imports list. */

const DecimalValue = Type.Unsafe<string | number>({
  type: ['string', 'number'],
  description: 'Exact decimal: a JSON number or a decimal string; stored exactly (no float rounding)',
  examples: ['0.000000012345678901', 8125.5],
});
const nullable = <T extends object>(schema: T, description?: string) =>
  Type.Optional(
    Type.Unsafe<unknown>({ anyOf: [schema, { type: 'null' }], ...(description ? { description } : {}) }),
  );

const ImportRow = Type.Object(
  {
    asset: Type.String({ maxLength: 64, description: 'Ticker or name: BTC, XBT, bitcoin, ETH, …' }),
    quantity: DecimalValue,
    costBasis: nullable(DecimalValue, 'Total cost of the row (not per unit), in costCurrency'),
    costCurrency: nullable(Type.String({ maxLength: 16 }), 'USD (default); USDT, USDC, … count as USD'),
    acquiredAt: nullable(
      Type.Unsafe<string | number>({ type: ['string', 'number'] }),
      'ISO 8601 (UTC unless an offset is given) or epoch seconds / milliseconds',
    ),
    venue: nullable(Type.String({ maxLength: 64 })),
    note: nullable(Type.String({ maxLength: 500 })),
    externalId: nullable(
      Type.String({ maxLength: 128 }),
      'Your id for the row: importing it again updates the row instead of adding one',
    ),
  },
  { additionalProperties: false, $id: 'PortfolioImportRow' },
);

export const ImportJson = Type.Object(
  {
    rows: Type.Array(ImportRow, {
      maxItems: MAX_IMPORT_ROWS,
      description: `At most ${MAX_IMPORT_ROWS} rows`,
    }),
  },
  { additionalProperties: false },
);

export const ImportCsv = Type.String({
  description:
    'CSV with a header row (`,` `;` or tab delimited, quoted fields, BOM allowed). Column names of common tracker exports are recognised; see docs/portfolio.md.',
});

export const ImportQuery = Type.Object({
  dryRun: Type.Optional(
    Type.Boolean({ default: false, description: 'Validate and count only; store nothing' }),
  ),
});

export const ImportHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      maxLength: 255,
      description:
        'Makes retries safe: the same key and body replay the first answer; another body with the key → 422; while the first runs → 409. Kept 24 h per account.',
    }),
  ),
});

export const ImportResult = Type.Object(
  {
    importId: Type.Union([Type.String(), Type.Null()], { description: 'null for a dry run' }),
    inserted: Type.Integer(),
    updated: Type.Integer(),
    unchanged: Type.Integer(),
    rows: Type.Integer(),
    dryRun: Type.Boolean(),
    format: Type.Union([Type.Literal('json'), Type.Literal('csv')]),
    ignoredColumns: Type.Optional(
      Type.Array(Type.String(), { description: 'CSV columns that map to no field' }),
    ),
  },
  { $id: 'PortfolioImportResult' },
);

const RowProblemSchema = Type.Object({
  row: Type.Integer({ description: '1-based: the first data row is 1' }),
  pointer: Type.String({ description: 'e.g. /rows/146/quantity' }),
  field: Type.Optional(Type.String()),
  message: Type.String(),
  column: Type.Optional(Type.String({ description: 'CSV: the header of the column' })),
  line: Type.Optional(Type.Integer({ description: 'CSV: the line of the file the row starts on' })),
});

export const ImportProblem = Type.Object(
  { ...ProblemSchema.properties, errors: Type.Optional(Type.Array(RowProblemSchema)) },
  { description: 'RFC 9457 problem; for invalid rows, `errors` lists every problem by row and field' },
);

const Usd = Type.Union([Type.String(), Type.Null()], {
  description: 'USD, decimal string rounded to the cent',
});
const Pct = Type.Union([Type.Number(), Type.Null()]);

const Holding = Type.Object({
  asset: Type.String(),
  quantity: Type.String({ description: 'Exact sum of the rows' }),
  rows: Type.Integer(),
  price: Type.Union([Type.Number(), Type.Null()], {
    description: 'Merged market mid in USD; null when unpriced',
  }),
  priceAsOf: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  valueUsd: Usd,
  costBasisUsd: Type.Union([Type.String(), Type.Null()], {
    description: 'null when a row has no cost basis',
  }),
  unrealizedPnlUsd: Usd,
  unrealizedPnlPct: Pct,
  allocationPct: Pct,
  change24hPct: Pct,
  change24hUsd: Usd,
});

export const PortfolioTotalsSchema = Type.Object({
  valueUsd: Type.String({ description: 'Sum over priced holdings' }),
  costBasisUsd: Type.String({ description: 'Over holdings with a price and a full cost basis' }),
  unrealizedPnlUsd: Type.String(),
  unrealizedPnlPct: Pct,
  change24hUsd: Type.String(),
  change24hPct: Pct,
  unpricedAssets: Type.Array(Type.String(), { description: 'Held but not valued (never counted as 0)' }),
  assetsWithoutCost: Type.Array(Type.String()),
});

export const Portfolio = Type.Object(
  {
    holdings: Type.Array(Holding),
    totals: PortfolioTotalsSchema,
    asOf: Type.String({ format: 'date-time' }),
    priceSource: Type.String({
      description: 'The market source prices come from: simulated, replay or ccxt',
    }),
  },
  { $id: 'Portfolio' },
);

const nullableString = Type.Union([Type.String(), Type.Null()]);
export const StoredRow = Type.Object({
  id: Type.String(),
  asset: Type.String(),
  quantity: Type.String(),
  costBasis: nullableString,
  costCurrency: nullableString,
  acquiredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  venue: nullableString,
  note: nullableString,
  externalId: nullableString,
  importId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const ImportEntry = Type.Object({
  id: Type.String(),
  format: Type.String(),
  rows: Type.Integer(),
  inserted: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  idempotencyKey: nullableString,
  createdAt: Type.String({ format: 'date-time' }),
});
