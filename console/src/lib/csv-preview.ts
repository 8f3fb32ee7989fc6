import { parse } from 'csv-parse/browser/esm/sync';

/** One record of a CSV file as the person wrote it, with the line of the file it starts on. */
export interface PreviewRecord {
  line: number;
  cells: string[];
}

export interface CsvPreview {
  delimiter: string;
  records: PreviewRecord[];
  /** Set when the file cannot be read as CSV at all; the server's dry run says the same in its own words. */
  unreadable?: string;
}

/**
 * Reads a CSV file for the import preview the way the server does (csv-parse; `,`, `;` or tab, whichever the
 * first lines use most; blank lines skipped), keeping each record's starting line so the server's row
 * problems (which name that line) can be shown next to the row they belong to.
 */
export function previewCsv(text: string, maxRecords = 250): CsvPreview {
  const delimiter = detectDelimiter(text);
  const records: PreviewRecord[] = [];
  try {
    const entries = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      raw: true,
      to: maxRecords,
    }) as unknown as { record: string[]; raw: string }[];
    let line = 1;
    for (const { record, raw } of entries) {
      // `raw` carries the blank lines skipped before the record: it starts after them.
      const start = line + newlines(/^[\r\n]*/.exec(raw)![0]);
      line += newlines(raw);
      records.push({ line: start, cells: record });
    }
    return { delimiter, records };
  } catch (error) {
    return { delimiter, records, unreadable: (error as Error).message };
  }
}

/** The delimiter the first lines use most (outside quotes): `,`, `;` or tab. */
export function detectDelimiter(text: string): string {
  const candidates = [',', ';', '\t'];
  const best = new Map(candidates.map((c) => [c, 0]));
  for (const line of text.slice(0, 8192).split(/\r?\n/).slice(0, 10)) {
    const counts = new Map(candidates.map((c) => [c, 0]));
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
    }
    for (const [c, n] of counts) if (n > best.get(c)!) best.set(c, n);
  }
  return candidates.reduce((pick, c) => (best.get(c)! > best.get(pick)! ? c : pick), ',');
}

const newlines = (text: string) => text.match(/\n/g)?.length ?? 0;
