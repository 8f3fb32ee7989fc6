import type { FieldProblem } from '../../lib/problems.ts';
import type { Upload } from './CsvImport.tsx';

/** The file as read, one line per record, with each row's problems right below it. */
export function PreviewTable({
  upload,
  problems,
}: {
  upload: Upload;
  problems: Map<number, FieldProblem[]>;
}) {
  const [head, ...records] = upload.preview.records;
  if (!head) return <p className="muted">The file is empty.</p>;
  const width = Math.max(head.cells.length, ...records.map((r) => r.cells.length));
  const cells = (values: string[]) => Array.from({ length: width }, (_, i) => values[i] ?? '');
  return (
    <div className="table-scroll preview">
      <table className="data compact">
        <caption className="visually-hidden">Preview of {upload.name}</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              Line
            </th>
            {cells(head.cells).map((cell, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
              <th key={i} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((record) => {
            const found = problems.get(record.line);
            const badColumns = new Set(found?.map((p) => p.column));
            return (
              <PreviewRow key={record.line} line={record.line} problems={found} span={width + 1}>
                {cells(record.cells).map((cell, i) => (
                  <td
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                    key={i}
                    className={badColumns.has(head.cells[i]) ? 'cell-error' : undefined}
                  >
                    {cell}
                  </td>
                ))}
              </PreviewRow>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function PreviewRow({
  line,
  problems,
  span,
  children,
}: {
  line: number;
  problems: FieldProblem[] | undefined;
  span: number;
  children: React.ReactNode;
}) {
  const errorId = `line-${line}-problems`;
  return (
    <>
      <tr
        data-line={line}
        className={problems ? 'row-invalid' : undefined}
        aria-describedby={problems ? errorId : undefined}
      >
        <td className="num muted">{line}</td>
        {children}
      </tr>
      {problems ? (
        <tr className="row-problems" data-problems-for={line}>
          <td colSpan={span} id={errorId}>
            {problems.map((p) => (
              <span key={p.pointer + p.message} className="row-problem">
                Row {p.row}
                {p.column ? ` · ${p.column}` : ''}: {p.message}
              </span>
            ))}
          </td>
        </tr>
      ) : null}
    </>
  );
}
