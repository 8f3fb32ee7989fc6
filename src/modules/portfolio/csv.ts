import { parse } from 'csv-parse';
import { AppError } from '../../shared/errors.ts';
import { fieldOfHeader } from './columns.ts';
import { MAX_IMPORT_ROWS, type RawRow, type RowField } from './types.ts';

export interface CsvRows {
  rows: RawRow[];
  /** Per row: the line of the file where it starts (1-based, as an editor or spreadsheet shows it). */
  lines: number[];
  /** Header → row field, for the columns used. */
  columns: Partial<Record<RowField, string>>;
  /** Headers that map to no field (kept out of the import, reported back). */
  ignoredColumns: string[];
}

/** How many leading records may come before the header (exchange exports put a title or account line first). */
const HEADER_SEARCH_RECORDS = 10;

/**
 * Reads a CSV body into raw rows with csv-parse (quotes, embedded delimiters and newlines, a BOM; `,`, `;`
 * or tab as the delimiter, whichever the first lines use most). The header is the first record that names
 * an asset and a quantity column. Stops reading as soon as the body proves to hold more than
 * `MAX_IMPORT_ROWS` rows and refuses it (413), so an oversized body costs no more than that.
 */
export async function readCsvRows(text: string): Promise<CsvRows> {
  const parser = parse(text, {
    bom: true,
    delimiter: detectDelimiter(text),
    relax_column_count: true,
    relax_quotes: false,
    skip_empty_lines: true,
    trim: true,
    raw: true,
    max_record_size: 65_536,
  });
  let header: string[] | undefined;
  let columns: Partial<Record<RowField, string>> = {};
  const indexOf = new Map<number, RowField>();
  const rows: RawRow[] = [];
  const lines: number[] = [];
  let seen = 0;
  let line = 1;
  try {
    for await (const entry of parser as AsyncIterable<{
      record: string[];
      raw: string;
    }>) {
      seen++;
      const { record, raw } = entry;
      // `raw` holds the record's text with any skipped blank lines before it: the record starts after those.
      const start = line + newlines(/^[\r\n]*/.exec(raw)![0]);
      line += newlines(raw);
      if (!header) {
        const mapped = mapHeader(record);
        if (mapped) {
          header = record;
          columns = mapped.columns;
          for (const [i, field] of mapped.indexes) indexOf.set(i, field);
        } else if (seen >= HEADER_SEARCH_RECORDS) {
          break;
        }
        continue;
      }
      if (rows.length === MAX_IMPORT_ROWS) {
        parser.destroy();
        throw new AppError(
          'payload_too_large',
          `an import holds at most ${MAX_IMPORT_ROWS} rows; this CSV has more`,
          {
            extra: { maxRows: MAX_IMPORT_ROWS },
          },
        );
      }
      const row: RawRow = {};
      for (const [i, field] of indexOf) {
        const value = record[i];
        if (value !== undefined && value !== '') row[field] = value;
      }
      rows.push(row);
      lines.push(start);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const e = error as { message?: string; lines?: number };
    throw new AppError('validation_failed', `the CSV cannot be read: ${e.message ?? 'malformed'}`, {
      errors: [
        {
          pointer: '/body',
          message: `malformed CSV${e.lines ? ` near line ${e.lines}` : ''}: ${e.message ?? ''}`,
        },
      ],
    });
  }
  if (!header) {
    throw new AppError(
      'validation_failed',
      'no header row naming an asset and a quantity column was found (see docs/portfolio.md for the accepted column names)',
      { errors: [{ pointer: '/body', message: 'needs a header row with asset and quantity columns' }] },
    );
  }
  const used = new Set(Object.values(columns));
  return { rows, lines, columns, ignoredColumns: header.filter((h) => h !== '' && !used.has(h)) };
}

function mapHeader(
  record: string[],
): { columns: Partial<Record<RowField, string>>; indexes: Array<[number, RowField]> } | undefined {
  const columns: Partial<Record<RowField, string>> = {};
  const indexes: Array<[number, RowField]> = [];
  record.forEach((cell, i) => {
    const field = fieldOfHeader(cell);
    // The first column naming a field wins (`Amount` before a later `Quantity`); later ones are ignored.
    if (field && columns[field] === undefined) {
      columns[field] = cell;
      indexes.push([i, field]);
    }
  });
  return columns.asset !== undefined && columns.quantity !== undefined ? { columns, indexes } : undefined;
}

/** The delimiter the first lines use most (outside quotes): `,`, `;` or tab. */
export function detectDelimiter(text: string): string {
  const candidates = [',', ';', '\t'];
  const best = new Map(candidates.map((c) => [c, 0]));
  const head = text.slice(0, 8192).split(/\r?\n/).slice(0, HEADER_SEARCH_RECORDS);
  for (const line of head) {
    const counts = new Map(candidates.map((c) => [c, 0]));
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
    }
    for (const [c, n] of counts) if (n > best.get(c)!) best.set(c, n);
  }
  let pick = ',';
  for (const c of candidates) if (best.get(c)! > best.get(pick)!) pick = c;
  return pick;
}

const newlines = (text: string) => text.match(/\n/g)?.length ?? 0;
