import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import type { PortfolioRow } from '../../api/types.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { TableCard } from '../../components/TableCard.tsx';
import { usePortfolioRows } from '../../hooks/portfolio.ts';
import { formatAmount, formatDateTime } from '../../lib/format.ts';

/** The stored lots, each deletable, and the button that resets the whole portfolio. */
export function StoredRows({ onReset }: { onReset(): void }) {
  const rows = usePortfolioRows();
  const [deleting, setDeleting] = useState<PortfolioRow>();
  const queryClient = useQueryClient();
  const columns = [
    'Asset',
    { label: 'Quantity', num: true },
    { label: 'Cost', num: true },
    'Acquired',
    'Venue',
    'Note',
    { label: 'Actions', hidden: true },
  ];
  return (
    <>
      <TableCard
        id="rows-title"
        title="Stored rows"
        actions={
          <button
            type="button"
            className="button small danger"
            onClick={onReset}
            disabled={!rows.data?.length}
          >
            Reset portfolio
          </button>
        }
        columns={columns}
        items={rows.data}
        row={(row) => (
          <tr key={row.id} data-row-id={row.id}>
            <th scope="row">{row.asset}</th>
            <td className="num">{formatAmount(row.quantity)}</td>
            <td className="num">
              {row.costBasis === null ? '—' : `${formatAmount(row.costBasis)} ${row.costCurrency ?? 'USD'}`}
            </td>
            <td title={formatDateTime(row.acquiredAt)}>
              {row.acquiredAt ? formatDateTime(row.acquiredAt).slice(0, 10) : '—'}
            </td>
            <td>{row.venue ?? '—'}</td>
            <td className="truncate" title={row.note ?? undefined}>
              {row.note ?? '—'}
            </td>
            <td>
              <div className="row-actions">
                <button
                  type="button"
                  className="button small ghost"
                  aria-label={`Delete the ${row.asset} row of ${row.quantity}`}
                  onClick={() => setDeleting(row)}
                >
                  Delete
                </button>
              </div>
            </td>
          </tr>
        )}
        empty="Nothing stored."
        error={rows.error}
        onRetry={() => rows.refetch()}
      />
      {deleting ? (
        <ConfirmDialog
          title={`Delete this ${deleting.asset} row?`}
          confirmLabel="Delete row"
          danger
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await unwrap(api.DELETE('/api/portfolio/rows/{id}', { params: { path: { id: deleting.id } } }));
            await queryClient.invalidateQueries({ queryKey: ['portfolio'] });
          }}
        >
          <p>
            {formatAmount(deleting.quantity)} {deleting.asset}
            {deleting.venue ? ` on ${deleting.venue}` : ''} leaves the holdings.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
