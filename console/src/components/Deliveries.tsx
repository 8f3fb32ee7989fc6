import type { AlertRule, Delivery } from '../api/types.ts';
import { useAlertDeliveries } from '../hooks/alerts.ts';
import { formatDateTime, formatLatency, formatRelative } from '../lib/format.ts';
import { TableCard } from './TableCard.tsx';

const statusTone = { delivered: 'ok', pending: 'warn', failed: 'out', capped: 'muted' } as const;

/** A rule's webhook deliveries, newest first; each opens to show every attempt. */
export function Deliveries({ rule, onClose }: { rule: AlertRule; onClose(): void }) {
  const deliveries = useAlertDeliveries(rule.id);
  const columns = ['Event', 'Status', { label: 'Attempts', num: true }, 'Created', 'Last error'];
  return (
    <TableCard
      id="deliveries-title"
      title={`Deliveries of “${rule.name}”`}
      actions={
        <button type="button" className="button small ghost" onClick={onClose}>
          Close
        </button>
      }
      columns={columns}
      items={deliveries.data?.data}
      row={(delivery) => <DeliveryRows key={delivery.id} delivery={delivery} />}
      empty="No deliveries yet. They appear when the rule fires (or on “Test”) and it names a webhook endpoint, or you have endpoints subscribed to alert.triggered."
      error={deliveries.error}
      onRetry={() => deliveries.refetch()}
      skeletonRows={2}
    />
  );
}

function DeliveryRows({ delivery: d }: { delivery: Delivery }) {
  const now = Date.now();
  return (
    <>
      <tr data-delivery-id={d.id}>
        <td>
          <code className="small">{d.eventId}</code>
          {d.test ? <span className="badge">test</span> : null}
        </td>
        <td>
          <span className={`badge ${statusTone[d.status]}`}>{d.status}</span>
          {d.status === 'pending' && d.nextAttemptAt ? (
            <span className="muted small"> next {formatRelative(d.nextAttemptAt, now)}</span>
          ) : null}
        </td>
        <td className="num">{d.attempts}</td>
        <td title={formatDateTime(d.createdAt)}>{formatRelative(d.createdAt, now)}</td>
        <td className="truncate" title={d.lastError ?? undefined}>
          {d.lastError ?? '—'}
        </td>
      </tr>
      {d.attemptLog.length ? (
        <tr className="attempts-row">
          <td colSpan={5}>
            <details>
              <summary>{d.attemptLog.length === 1 ? '1 attempt' : `${d.attemptLog.length} attempts`}</summary>
              <table className="data compact">
                <caption className="visually-hidden">Attempts of delivery {d.id}</caption>
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">At</th>
                    <th scope="col">Outcome</th>
                    <th scope="col" className="num">
                      HTTP
                    </th>
                    <th scope="col" className="num">
                      Latency
                    </th>
                    <th scope="col">Error</th>
                  </tr>
                </thead>
                <tbody>
                  {d.attemptLog.map((a) => (
                    <tr key={a.attempt}>
                      <td>{a.attempt}</td>
                      <td>{formatDateTime(a.at)}</td>
                      <td>
                        <span className={`badge ${a.outcome === 'delivered' ? 'ok' : 'out'}`}>
                          {a.outcome.replace('_', ' ')}
                        </span>
                      </td>
                      <td className="num">{a.statusCode ?? '—'}</td>
                      <td className="num">{formatLatency(a.latencyMs)}</td>
                      <td className="truncate" title={a.error ?? undefined}>
                        {a.error ?? '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </td>
        </tr>
      ) : null}
    </>
  );
}
