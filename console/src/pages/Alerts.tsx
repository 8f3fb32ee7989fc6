import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import type { AlertRule, AlertState, AlertType, NewAlert } from '../api/types.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { Segmented } from '../components/Segmented.tsx';
import { TableCard } from '../components/TableCard.tsx';
import { Deliveries } from '../components/Deliveries.tsx';
import { WebhookEndpoints } from '../components/WebhookEndpoints.tsx';
import { useAlertRules, useWebhooks } from '../hooks/alerts.ts';
import { describeCondition, ruleBody, stateAction } from '../lib/alerts.ts';
import { formatDateTime, formatRelative } from '../lib/format.ts';
import { fieldErrors } from '../lib/problems.ts';

const states: AlertState[] = ['active', 'paused', 'triggered', 'expired', 'failing'];
const types: AlertType[] = ['price', 'volume', 'address_flow'];
const typeLabel: Record<AlertType, string> = {
  price: 'Price',
  volume: 'Volume',
  address_flow: 'Address flow',
};
const stateTone: Record<AlertState, string> = {
  active: 'ok',
  paused: 'muted',
  triggered: 'in',
  expired: 'muted',
  failing: 'out',
};
const tabs = ['Rules', 'Webhook endpoints'] as const;

export default function Alerts() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'webhooks' ? 'Webhook endpoints' : 'Rules';
  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>Alerts</h1>
          <p className="muted">
            Rules on prices, volumes and on-chain flows. When one fires, Meridian appends an event to your
            event log and signs a delivery to each webhook endpoint it names.
          </p>
        </div>
        <Segmented
          label="Section"
          options={tabs}
          value={tab}
          onChange={(next) => setParams(next === 'Rules' ? {} : { tab: 'webhooks' })}
        />
      </div>
      {tab === 'Rules' ? <Rules /> : <WebhookEndpoints />}
    </div>
  );
}

function Rules() {
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
      <CreateRule />
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
                {types.map((t) => (
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

const ruleFields = [
  'name',
  'symbol',
  'condition/op',
  'condition/value',
  'condition/window',
  'condition/exchange',
  'condition/asset',
  'condition/address',
  'condition/direction',
  'condition/minUsd',
  'trigger/mode',
  'trigger/cooldownSec',
  'expiresAt',
  'channels/webhookIds',
] as const;
type RuleField = (typeof ruleFields)[number];
const windows = ['5m', '15m', '1h', '24h'] as const;
const priceOps = [
  { value: 'crosses_above', label: 'crosses above' },
  { value: 'crosses_below', label: 'crosses below' },
  { value: 'above', label: 'is above' },
  { value: 'below', label: 'is below' },
  { value: 'change_pct', label: 'changes by %' },
] as const;

function CreateRule() {
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const [type, setType] = useState<AlertType>('price');
  const [op, setOp] = useState<string>('crosses_above');
  const [created, setCreated] = useState<AlertRule>();
  const create = useMutation({
    mutationFn: (body: NewAlert) => unwrap(api.POST('/api/alerts', { body })),
    onSuccess: (rule) => {
      setCreated(rule);
      queryClient.invalidateQueries({ queryKey: ['alerts'] });
    },
  });
  const { byField, rest } = fieldErrors(create.error, ruleFields);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    create.mutate(ruleBody(type, new FormData(form)), { onSuccess: () => form.reset() });
  };
  const field = (name: RuleField, label: string, control: React.ReactNode, grow = false) => (
    <Field name={name} label={label} error={byField.get(name)} grow={grow}>
      {control}
    </Field>
  );
  const id = (name: RuleField) => `rule-${name.replace('/', '-')}`;
  const described = (name: RuleField) =>
    byField.has(name) ? { 'aria-invalid': true, 'aria-describedby': `${id(name)}-error` } : {};
  const windowField = field(
    'condition/window',
    type === 'address_flow' ? 'Sum over (optional)' : 'Window',
    <select
      id={id('condition/window')}
      name="window"
      defaultValue={type === 'address_flow' ? '' : '1h'}
      {...described('condition/window')}
    >
      {type === 'address_flow' ? <option value="">Each transfer</option> : null}
      {windows.map((w) => (
        <option key={w} value={w}>
          {w}
        </option>
      ))}
    </select>,
  );

  return (
    <form className="card create-rule" onSubmit={submit} aria-labelledby="create-rule-title" noValidate>
      <div className="card-header wrap">
        <h2 id="create-rule-title">Create a rule</h2>
        <Segmented
          label="Rule type"
          options={types}
          labels={typeLabel}
          value={type}
          onChange={(next) => {
            setType(next);
            create.reset();
          }}
        />
      </div>
      <div className="form-grid">
        {field(
          'name',
          'Name (optional)',
          <input
            id={id('name')}
            name="name"
            maxLength={100}
            autoComplete="off"
            placeholder="BTC breakout"
            {...described('name')}
          />,
          true,
        )}
        {type !== 'address_flow'
          ? field(
              'symbol',
              'Symbol',
              <input
                id={id('symbol')}
                name="symbol"
                required
                placeholder="BTCUSDT"
                autoComplete="off"
                {...described('symbol')}
              />,
            )
          : null}
        {type === 'price'
          ? field(
              'condition/op',
              'Condition',
              <select
                id={id('condition/op')}
                name="op"
                value={op}
                onChange={(e) => setOp(e.target.value)}
                {...described('condition/op')}
              >
                {priceOps.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>,
            )
          : null}
        {type !== 'address_flow'
          ? field(
              'condition/value',
              type === 'volume' ? 'Quote volume above (USD)' : op === 'change_pct' ? 'Change (%)' : 'Price',
              <input
                id={id('condition/value')}
                name="value"
                inputMode="decimal"
                required
                placeholder={type === 'volume' ? '50000000' : op === 'change_pct' ? '-5' : '100000'}
                {...described('condition/value')}
              />,
            )
          : null}
        {type === 'volume' || (type === 'price' && op === 'change_pct') ? windowField : null}
        {type === 'address_flow' ? (
          <>
            {field(
              'condition/direction',
              'Direction',
              <select
                id={id('condition/direction')}
                name="direction"
                defaultValue="in"
                {...described('condition/direction')}
              >
                <option value="in">In (deposits)</option>
                <option value="out">Out (withdrawals)</option>
                <option value="any">Either</option>
              </select>,
            )}
            {field(
              'condition/minUsd',
              'Minimum USD',
              <input
                id={id('condition/minUsd')}
                name="minUsd"
                inputMode="decimal"
                required
                placeholder="1000000"
                {...described('condition/minUsd')}
              />,
            )}
            {windowField}
            {field(
              'condition/exchange',
              'Exchange (optional)',
              <input
                id={id('condition/exchange')}
                name="exchange"
                placeholder="binance"
                autoComplete="off"
                {...described('condition/exchange')}
              />,
            )}
            {field(
              'condition/asset',
              'Asset (optional)',
              <input
                id={id('condition/asset')}
                name="asset"
                placeholder="USDT"
                autoComplete="off"
                {...described('condition/asset')}
              />,
            )}
            {field(
              'condition/address',
              'Address (optional)',
              <input
                id={id('condition/address')}
                name="address"
                placeholder="0x…"
                autoComplete="off"
                spellCheck={false}
                {...described('condition/address')}
              />,
              true,
            )}
          </>
        ) : null}
        {field(
          'trigger/mode',
          'Fires',
          <select id={id('trigger/mode')} name="mode" defaultValue="once" {...described('trigger/mode')}>
            <option value="once">Once, then stops</option>
            <option value="every">Every time</option>
          </select>,
        )}
        {field(
          'trigger/cooldownSec',
          'Cooldown (s, optional)',
          <input
            id={id('trigger/cooldownSec')}
            name="cooldownSec"
            inputMode="numeric"
            placeholder="300"
            {...described('trigger/cooldownSec')}
          />,
        )}
        {field(
          'expiresAt',
          'Expires (optional)',
          <input id={id('expiresAt')} name="expiresAt" type="datetime-local" {...described('expiresAt')} />,
        )}
      </div>
      {webhooks.data?.length ? (
        <fieldset
          className="permissions"
          aria-describedby={
            byField.has('channels/webhookIds') ? `${id('channels/webhookIds')}-error` : undefined
          }
        >
          <legend>Webhook endpoints (none ticked: every endpoint subscribed to alert.triggered)</legend>
          <div className="check-grid">
            {webhooks.data.map((w) => (
              <label key={w.id} className="check">
                <input type="checkbox" name="webhookIds" value={w.id} /> {w.description ?? w.url}
              </label>
            ))}
          </div>
          {byField.has('channels/webhookIds') ? (
            <span className="field-error" id={`${id('channels/webhookIds')}-error`}>
              {byField.get('channels/webhookIds')}
            </span>
          ) : null}
        </fieldset>
      ) : null}
      <ErrorNote error={create.error} errors={rest} />
      <div role="status">
        {created && !create.error ? (
          <p className="notice ok">
            Rule “{created.name}” created
            {created.normalized.length
              ? ` (${created.normalized.map((n) => `${n.field} ${n.requested} → ${n.used}`).join(', ')})`
              : ''}
            .
          </p>
        ) : null}
      </div>
      <button type="submit" className="button primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create rule'}
      </button>
    </form>
  );
}

/** A labelled form field with its validation message right below it, tied to the control for screen readers. */
function Field({
  name,
  label,
  error,
  grow,
  children,
}: {
  name: string;
  label: string;
  error: string | undefined;
  grow: boolean;
  children: React.ReactNode;
}) {
  const id = `rule-${name.replace('/', '-')}`;
  return (
    <div className={`field${grow ? ' grow' : ''}${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
