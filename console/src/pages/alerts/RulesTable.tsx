import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import type { AlertRule, AlertState, AlertType } from '../../api/types.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Deliveries } from '../../components/Deliveries.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { TableCard } from '../../components/TableCard.tsx';
import { useAlertRules } from '../../hooks/alerts.ts';
import { describeCondition, stateAction } from '../../lib/alerts.ts';
import { formatDateTime, formatRelative } from '../../lib/format.ts';
import { allTypes, stateTone, states, typeLabel } from './labels.ts';

/** The rule list: filters, cursor paging, each rule's actions, the selected rule's deliveries. */
export function RulesTable() {
  const [filters, setFilters] = useState<{ state?: AlertState; type?: AlertType }>({});
  // Cursor paging: the cursors of the pages before this one, so "Previous" can go back.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const rules = useAlertRules(filters, cursor);
  const [selected, setSelected] = useState<AlertRule>();
  const [deleting, setDeleting] = useState<AlertRule>();
  const queryClient = useQueryClient();
  const [tested, setTested] = useState<string>();

  const setFilter = (next: typeof filters) => {
    setFilters(next);
    setCursors([undefined]);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['alerts'] });
  const setState = useMutation({
    mutationFn: ({ rule, state }: { rule: AlertRule; state: 'active' | 'paused' }) =>
      unwrap(api.PATCH('/api/alerts/{id}', { params: { path: { id: rule.id } }, body: { state } })),
    onSuccess: refresh,
  });
  const testFire = useMutation({
    mutationFn: (rule: AlertRule) =>
      unwrap(api.POST('/api/alerts/{id}/test', { params: { path: { id: rule.id } } })),
    onSuccess: (result, rule) => {
      setTested(`Test event ${result.eventId} sent for “${rule.name}”.`);
      setSelected(rule);
      queryClient.invalidateQueries({ queryKey: ['alert-deliveries', rule.id] });
    },
  });
  const columns = [
    'Name',
    'Type',
    'Condition',
    'State',
    'Fired',
    'Created',
    { label: 'Actions', hidden: true },
  ];

  return (
    <>
      <TableCard
        id="rules-title"
        title="Your rules"
        actions={
          <div className="inline-filters">
            <div className="field">
              <label htmlFor="filter-state">State</label>
              <select
                id="filter-state"
                value={filters.state ?? ''}
                onChange={(e) =>
                  setFilter({ ...filters, state: (e.target.value || undefined) as AlertState })
                }
              >
                <option value="">Any</option>
                {states.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="filter-type">Type</label>
              <select
                id="filter-type"
                value={filters.type ?? ''}
                onChange={(e) => setFilter({ ...filters, type: (e.target.value || undefined) as AlertType })}
              >
                <option value="">Any</option>
                {allTypes.map((t) => (
                  <option key={t} value={t}>
                    {typeLabel[t]}
                  </option>
                ))}
              </select>
            </div>
          </div>
        }
        notes={
          <>
            <ErrorNote error={setState.error ?? testFire.error} />
            <p className="visually-hidden" role="status">
              {tested ?? ''}
            </p>
            {tested ? <p className="notice ok inset">{tested}</p> : null}
          </>
        }
        columns={columns}
        items={rules.data?.data}
        row={(rule) => (
          <tr
            key={rule.id}
            data-rule-id={rule.id}
            aria-current={selected?.id === rule.id ? 'true' : undefined}
          >
            <th scope="row">{rule.name}</th>
            <td>{typeLabel[rule.type]}</td>
            <td className="small condition">{describeCondition(rule)}</td>
            <td>
              <span className={`badge ${stateTone[rule.state]}`} data-testid="rule-state">
                {rule.state}
              </span>
            </td>
            <td title={formatDateTime(rule.lastTriggeredAt)}>
              {rule.triggerCount > 0
                ? `${rule.triggerCount}× · ${formatRelative(rule.lastTriggeredAt, Date.now())}`
                : 'Never'}
            </td>
            <td title={formatDateTime(rule.createdAt)}>{formatRelative(rule.createdAt, Date.now())}</td>
            <td className="actions">
              <div className="row-actions">
                {stateAction(rule.state) === 'pause' ? (
                  <button
                    type="button"
                    className="button small ghost"
                    aria-label={`Pause ${rule.name}`}
                    onClick={() => setState.mutate({ rule, state: 'paused' })}
                  >
                    Pause
                  </button>
                ) : stateAction(rule.state) === 'resume' ? (
                  <button
                    type="button"
                    className="button small ghost"
                    aria-label={`Resume ${rule.name}`}
                    onClick={() => setState.mutate({ rule, state: 'active' })}
                  >
                    Resume
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button small ghost"
                  aria-label={`Test ${rule.name}`}
                  onClick={() => testFire.mutate(rule)}
                >
                  Test
                </button>
                <button
                  type="button"
                  className="button small ghost"
                  aria-label={`Deliveries of ${rule.name}`}
                  aria-pressed={selected?.id === rule.id}
                  onClick={() => setSelected(selected?.id === rule.id ? undefined : rule)}
                >
                  Deliveries
                </button>
                <button
                  type="button"
                  className="button small danger"
                  aria-label={`Delete ${rule.name}`}
                  onClick={() => setDeleting(rule)}
                >
                  Delete
                </button>
              </div>
            </td>
          </tr>
        )}
        empty={
          filters.state || filters.type ? 'No rule matches these filters.' : 'No rules yet. Create one above.'
        }
        error={rules.error}
        onRetry={() => rules.refetch()}
        tableClass="alerts-table"
        footer={
          <nav className="pager" aria-label="Rule pages">
            <button
              type="button"
              className="button small ghost"
              disabled={cursors.length <= 1}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              Previous
            </button>
            <span className="muted small">Page {cursors.length}</span>
            <button
              type="button"
              className="button small ghost"
              disabled={!rules.data?.nextCursor}
              onClick={() => setCursors((c) => [...c, rules.data!.nextCursor!])}
            >
              Next
            </button>
          </nav>
        }
      />
      {selected ? <Deliveries rule={selected} onClose={() => setSelected(undefined)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete rule"
          danger
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await unwrap(api.DELETE('/api/alerts/{id}', { params: { path: { id: deleting.id } } }));
            if (selected?.id === deleting.id) setSelected(undefined);
            await refresh();
          }}
        >
          <p>The rule stops evaluating at once. Events it already fired stay in your event log.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
