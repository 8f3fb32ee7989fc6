import { ErrorNote } from './ErrorNote.tsx';
import { SkeletonRows } from './Skeleton.tsx';
import { type Column, TableHead } from './TableHead.tsx';

/**
 * A titled card around a data table: the load error with "Try again", skeleton rows while loading, a
 * sentence when there is nothing, else one `row(item)` per item. `actions` sit in the header (filters, a
 * reset button), `notes` between the header and the table, `footer` below it (paging).
 */
export function TableCard<T>({
  id,
  title,
  columns,
  items,
  row,
  empty,
  error,
  onRetry,
  actions,
  notes,
  footer,
  tableClass = '',
  skeletonRows = 3,
}: {
  id: string;
  title: React.ReactNode;
  columns: (string | Column)[];
  items: readonly T[] | undefined;
  row(item: T): React.ReactNode;
  empty: React.ReactNode;
  error: unknown;
  onRetry?: () => void;
  actions?: React.ReactNode;
  notes?: React.ReactNode;
  footer?: React.ReactNode;
  tableClass?: string;
  skeletonRows?: number;
}) {
  return (
    <section className="card flush" aria-labelledby={id}>
      <header className={`card-header${actions ? ' wrap' : ''}`}>
        <h2 id={id}>{title}</h2>
        {actions}
      </header>
      <ErrorNote error={error} onRetry={onRetry} />
      {notes}
      <div className="table-scroll">
        <table className={`data ${tableClass}`}>
          <TableHead columns={columns} />
          <tbody>
            {items ? (
              items.length === 0 ? (
                <tr>
                  <td colSpan={columns.length} className="muted">
                    {empty}
                  </td>
                </tr>
              ) : (
                items.map(row)
              )
            ) : (
              <SkeletonRows rows={skeletonRows} columns={columns.length} />
            )}
          </tbody>
        </table>
      </div>
      {footer}
    </section>
  );
}
