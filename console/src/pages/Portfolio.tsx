import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { SourceNotice } from '../components/SourceNotice.tsx';
import { usePortfolio } from '../hooks/portfolio.ts';
import { formatDateTime, formatRelative } from '../lib/format.ts';
import { CsvImport } from './portfolio/CsvImport.tsx';
import { Holdings } from './portfolio/Holdings.tsx';
import { ImportHistory } from './portfolio/ImportHistory.tsx';
import { StoredRows } from './portfolio/StoredRows.tsx';
import { Totals } from './portfolio/Totals.tsx';

export default function Portfolio() {
  const portfolio = usePortfolio();
  const [confirmReset, setConfirmReset] = useState(false);
  const queryClient = useQueryClient();
  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>Portfolio</h1>
          <p className="muted">
            Your holdings valued at Meridian's merged market price. Import lots from a CSV export (Koinly,
            CoinTracker, Coinbase or your own columns).
          </p>
        </div>
        {portfolio.data ? (
          <p className="muted small" title={formatDateTime(portfolio.data.asOf)}>
            Prices: <span className="badge">{portfolio.data.priceSource}</span> · as of{' '}
            {formatRelative(portfolio.data.asOf, Date.now())}
          </p>
        ) : null}
      </div>
      <SourceNotice kind="market" source={portfolio.data?.priceSource} />
      <Totals portfolio={portfolio.data} />
      <Holdings portfolio={portfolio.data} error={portfolio.error} onRetry={() => portfolio.refetch()} />
      <CsvImport />
      <StoredRows onReset={() => setConfirmReset(true)} />
      <ImportHistory />
      {confirmReset ? (
        <ConfirmDialog
          title="Reset the portfolio?"
          confirmLabel="Delete every row"
          danger
          onClose={() => setConfirmReset(false)}
          onConfirm={async () => {
            await unwrap(api.DELETE('/api/portfolio'));
            await queryClient.invalidateQueries({ queryKey: ['portfolio'] });
          }}
        >
          <p>
            Every stored row is deleted and the holdings become empty. The import history is kept. This cannot
            be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
