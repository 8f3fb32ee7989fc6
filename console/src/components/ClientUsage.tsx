import { useAccountUsage } from '../hooks/queries.ts';
import { formatDateTime } from '../lib/format.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { TableHead } from './TableHead.tsx';

type Period = 'last24h' | 'last30d';

/** Who used the quota: the console itself apart from each API key, over 24 h and 30 days. */
export function ClientUsage() {
  const usage = useAccountUsage();
  const u = usage.data;
  const label = (c: { client: string; tokenId: string | null; tokenName: string | null }) =>
    c.client === 'console'
      ? 'This web console'
      : c.client === 'token'
        ? `Key “${c.tokenName ?? c.tokenId}”`
        : 'Before clients were recorded';
  const rows = (period: Period) => u?.[period].byClient ?? [];
  const clients = [...new Set([...rows('last24h'), ...rows('last30d')].map(label))];
  const count = (period: Period, name: string) => {
    const found = rows(period).find((c) => label(c) === name);
    return found
      ? `${found.requests.toLocaleString('en-US')}${found.rateLimited ? ` (${found.rateLimited} × 429)` : ''}`
      : '0';
  };
  return (
    <section className="card flush" aria-labelledby="client-usage-title">
      <header className="card-header">
        <h2 id="client-usage-title">Requests by client</h2>
        {u ? (
          <span className="muted small">
            {u.quota.used} of {u.quota.limit} used in this window; resets {formatDateTime(u.quota.resetAt)}
          </span>
        ) : null}
      </header>
      <ErrorNote error={usage.error} onRetry={() => usage.refetch()} />
      <div className="table-scroll">
        <table className="data">
          <TableHead columns={['Client', 'Last 24 h', 'Last 30 days']} />
          <tbody>
            {clients.length === 0 ? (
              <tr>
                <td colSpan={3} className="muted">
                  {u ? 'No requests yet.' : 'Loading…'}
                </td>
              </tr>
            ) : (
              clients.map((name) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>{count('last24h', name)}</td>
                  <td>{count('last30d', name)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
