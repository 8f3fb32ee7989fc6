import { TableCard } from '../../components/TableCard.tsx';
import { usePortfolioImports } from '../../hooks/portfolio.ts';
import { formatDateTime, formatRelative } from '../../lib/format.ts';

/** Past imports with their row counts. */
export function ImportHistory() {
  const imports = usePortfolioImports();
  const columns = [
    'When',
    'Format',
    { label: 'Rows', num: true },
    { label: 'New', num: true },
    { label: 'Updated', num: true },
    { label: 'Unchanged', num: true },
  ];
  const now = Date.now();
  return (
    <TableCard
      id="imports-title"
      title="Import history"
      columns={columns}
      items={imports.data}
      row={(entry) => (
        <tr key={entry.id}>
          <td title={formatDateTime(entry.createdAt)}>{formatRelative(entry.createdAt, now)}</td>
          <td className="uppercase">{entry.format}</td>
          <td className="num">{entry.rows}</td>
          <td className="num">{entry.inserted}</td>
          <td className="num">{entry.updated}</td>
          <td className="num">{entry.unchanged}</td>
        </tr>
      )}
      empty="No imports yet."
      error={imports.error}
      onRetry={() => imports.refetch()}
      skeletonRows={2}
    />
  );
}
