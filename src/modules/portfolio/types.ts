/** The fields of a portfolio row (JSON names; CSV headers map onto them, see `columns.ts`). */
export const ROW_FIELDS = [
  'asset',
  'quantity',
  'costBasis',
  'costCurrency',
  'acquiredAt',
  'venue',
  'note',
  'externalId',
] as const;
export type RowField = (typeof ROW_FIELDS)[number];

/** A row as received, before validation: every value as text (JSON numbers keep their exact digits). */
export type RawRow = Partial<Record<RowField, string | null>>;

/** One problem with one row: 1-based row number (the first data row is 1), JSON pointer, field, message. */
export interface RowProblem {
  row: number;
  pointer: string;
  field?: RowField;
  message: string;
  /** CSV only: the header of the column the value came from, and the line of the file (1-based). */
  column?: string;
  line?: number;
}

/** The most rows one import may carry. */
export const MAX_IMPORT_ROWS = 200;
