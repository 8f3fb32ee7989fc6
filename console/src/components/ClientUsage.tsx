import { useAccountUsage } from '../hooks/queries.ts';
import { formatDateTime } from '../lib/format.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { TableHead } from './TableHead.tsx';

type Period = 'currentWindow' | 'last24h' | 'last30d';
type Counts = { requests: number; rateLimited: number };
type Client = {
  client: string;
  tokenId: string | null;
  tokenName: string | null;
  oauthClient: { id: string; name: string } | null;
};

const countText = (found: Counts | undefined) =>
  found
    ? `${found.requests.toLocaleString('en-US')}${found.rateLimited ? ` (${found.rateLimited} × 429)` : ''}`
    : '0';

const label = (c: Client) =>
  c.client === 'console'
    ? 'This web console'
    : c.client === 'token'
      ? `Key “${c.tokenName ?? c.tokenId}”`
      : c.client === 'oauth'
        ? `App “${c.oauthClient?.name ?? 'unknown'}” (OAuth)`
        : 'Before clients were recorded';

/**
 * Who used the quota: the console itself apart from each API key and authorized app, in the rate limit's
 * current window, 24 h and 30 days; and the current window by endpoint.
 */
export function ClientUsage() {
  const usage = useAccountUsage();
  const u = usage.data;
  const rows = (period: Period) => u?.[period].byClient ?? [];
  const clients = [...new Set([...rows('currentWindow'), ...rows('last24h'), ...rows('last30d')].map(label))];
  const count = (period: Period, name: string) => countText(rows(period).find((c) => label(c) === name));
  const endpoints = u?.currentWindow.byEndpoint ?? [];
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
          <TableHead columns={['Client', 'This minute', 'Last 24 h', 'Last 30 days']} />
          <tbody>
            {clients.length === 0 ? (
              <tr>
                <td colSpan={4} className="muted">
                  {u ? 'No requests yet.' : 'Loading…'}
                </td>
              </tr>
            ) : (
              clients.map((name) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>{count('currentWindow', name)}</td>
                  <td>{count('last24h', name)}</td>
                  <td>{count('last30d', name)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <header className="card-header">
        <h3 id="window-usage-title">This minute by endpoint</h3>
      </header>
      <div className="table-scroll">
        <table className="data" aria-labelledby="window-usage-title">
          <TableHead columns={['Endpoint', 'Requests', '429s']} />
          <tbody>
            {endpoints.length === 0 ? (
              <tr>
                <td colSpan={3} className="muted">
                  {u ? 'No requests in the current window.' : 'Loading…'}
                </td>
              </tr>
            ) : (
              endpoints.map((e) => (
                <tr key={e.endpoint}>
                  <th scope="row">
                    <code>{e.endpoint}</code>
                  </th>
                  <td>{e.requests.toLocaleString('en-US')}</td>
                  <td>{e.rateLimited.toLocaleString('en-US')}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {u ? (
        <p className="muted small card-note">
          “This minute” is the rate limit's sliding 60-second window, counted to the second since{' '}
          {formatDateTime(u.currentWindow.from)}; other servers' requests appear within{' '}
          {Math.round(u.flushIntervalMs / 1000)} s.
        </p>
      ) : null}
    </section>
  );
}
