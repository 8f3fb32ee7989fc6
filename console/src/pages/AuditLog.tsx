import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import type { AuditAction, AuditEntry, AuditPage } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { SkeletonRows } from '../components/Skeleton.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { formatDateTime } from '../lib/format.ts';

/**
 * The filter's choices, in words. Keyed by the API's action type, so an action the server adds and this page
 * does not name fails the type-check instead of silently missing from the filter.
 */
const actionLabels: Record<AuditAction, string> = {
  'auth.sign_in': 'Sign-in',
  'auth.sign_out': 'Sign-out',
  'auth.two_factor': 'Wrong two-factor code',
  'token.create': 'API key created',
  'token.rotate': 'API key rotated',
  'token.revoke': 'API key revoked',
  'user.create': 'User created',
  'user.role_change': 'Role changed',
  'user.plan_change': 'Plan changed',
  'two_factor.enrol': 'Two-factor turned on',
  'two_factor.disable': 'Two-factor turned off',
  'two_factor.recovery_code_use': 'Recovery code used',
  'webhook.create': 'Webhook created',
  'webhook.rotate': 'Webhook secret rotated',
  'webhook.delete': 'Webhook deleted',
  'channel.create': 'Channel added',
  'channel.verify': 'Channel verified',
  'channel.test': 'Channel test message sent',
  'channel.delete': 'Channel deleted',
  'alert_rule.delete': 'Alert rule deleted',
  'label.delete': 'Label deleted',
  'portfolio.import': 'Portfolio imported',
  'portfolio.row_delete': 'Portfolio row deleted',
  'portfolio.delete': 'Portfolio deleted',
  'oauth.client_create': 'OAuth client registered',
  'oauth.client_delete': 'OAuth client deleted',
  'oauth.grant': 'App authorized',
  'oauth.grant_revoke': 'App authorization revoked',
  'organization.create': 'Organization created',
  'organization.update': 'Organization settings changed',
  'organization.plan_change': 'Organization plan changed',
  'organization.invite': 'Invitation sent',
  'organization.invitation_revoke': 'Invitation withdrawn',
  'organization.join': 'Invitation accepted',
  'organization.member_role_change': 'Member role changed',
  'organization.member_remove': 'Member removed',
  'organization.leave': 'Member left',
  'organization.transfer': 'Ownership transferred',
};
const actions = Object.keys(actionLabels) as AuditAction[];

interface Filters {
  action?: AuditAction;
  actor?: string;
  from?: string;
  to?: string;
}

/** `datetime-local` values are local times without a zone: sent as the instant they name. */
const instant = (local: FormDataEntryValue | null) =>
  local ? new Date(String(local)).toISOString() : undefined;

/** The audit log (administrators): who did what, when, from where, and how it ended; filters and an export. */
export default function AuditLog() {
  const [filters, setFilters] = useState<Filters>({});
  const entries = useInfiniteQuery({
    queryKey: ['audit-log', filters],
    initialPageParam: undefined as string | undefined,
    // The JSON answer (the route also answers JSON lines, for the export link below).
    queryFn: async ({ pageParam }): Promise<AuditPage> =>
      (await unwrap(
        api.GET('/api/audit-log', { params: { query: { ...filters, limit: 100, cursor: pageParam } } }),
      )) as AuditPage,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const rows: AuditEntry[] = entries.data?.pages.flatMap((p) => p.data) ?? [];
  const exportQuery = new URLSearchParams({ format: 'jsonl' });
  for (const [key, value] of Object.entries(filters)) if (value) exportQuery.set(key, value);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFilters({
      action: (String(form.get('action') ?? '') || undefined) as AuditAction | undefined,
      actor: String(form.get('actor') ?? '').trim() || undefined,
      from: instant(form.get('from')),
      to: instant(form.get('to')),
    });
  };

  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>Audit log</h1>
          <p className="muted">
            Sign-ins, keys, roles and plans, two-factor, channels, webhooks, imports and deletions: newest
            first. Entries cannot be changed; old ones are removed after the retention period.
          </p>
        </div>
      </div>
      <form className="card form-row" onSubmit={apply} aria-label="Filters">
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select id="audit-action" name="action" defaultValue="">
            <option value="">Any</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {actionLabels[a]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-actor">User id</label>
          <input id="audit-actor" name="actor" maxLength={64} placeholder="usr_…" autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="audit-from">From</label>
          <input id="audit-from" name="from" type="datetime-local" />
        </div>
        <div className="field">
          <label htmlFor="audit-to">To</label>
          <input id="audit-to" name="to" type="datetime-local" />
        </div>
        <button type="submit" className="button primary">
          Apply
        </button>
        <a className="button ghost" href={`/api/audit-log?${exportQuery}`} download="audit-log.jsonl">
          Export JSON lines
        </a>
      </form>
      <section className="card flush" aria-labelledby="audit-title">
        <header className="card-header">
          <h2 id="audit-title">Entries</h2>
        </header>
        <ErrorNote error={entries.error} onRetry={() => entries.refetch()} />
        <div className="table-scroll">
          <table className="data audit-table">
            <TableHead
              columns={['Time', 'Action', 'Outcome', 'User', 'Credential', 'Address', 'Target', 'Detail']}
            />
            <tbody>
              {entries.data ? (
                rows.length === 0 ? (
                  <tr>
                    <td colSpan={8} className="muted">
                      No entries match.
                    </td>
                  </tr>
                ) : (
                  rows.map((e) => (
                    <tr key={e.id} data-audit-id={e.id}>
                      <td>{formatDateTime(e.at)}</td>
                      <th scope="row">
                        <code>{e.action}</code>
                      </th>
                      <td>
                        <span className={`badge ${e.outcome === 'success' ? 'ok' : 'warn'}`}>
                          {e.outcome}
                        </span>
                      </td>
                      <td className="small">{e.actorId ?? '—'}</td>
                      <td>{e.credential}</td>
                      <td className="small">{e.address ?? '—'}</td>
                      <td className="small">{e.target ?? '—'}</td>
                      <td className="small">{e.detail ? JSON.stringify(e.detail) : ''}</td>
                    </tr>
                  ))
                )
              ) : (
                <SkeletonRows rows={5} columns={8} />
              )}
            </tbody>
          </table>
        </div>
        {entries.hasNextPage ? (
          <button
            type="button"
            className="button ghost"
            onClick={() => entries.fetchNextPage()}
            disabled={entries.isFetchingNextPage}
          >
            {entries.isFetchingNextPage ? 'Loading…' : 'Older entries'}
          </button>
        ) : null}
      </section>
    </div>
  );
}
