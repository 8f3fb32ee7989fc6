import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import type { AlertRule, NewAlert } from '../../api/types.ts';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { Segmented } from '../../components/Segmented.tsx';
import { useAlertChannels, useWebhooks } from '../../hooks/alerts.ts';
import { ruleBody } from '../../lib/alerts.ts';
import { fieldErrors } from '../../lib/problems.ts';
import { BacktestPreview } from './BacktestPreview.tsx';
import { FormField } from './FormField.tsx';
import { type FormRuleType, typeLabel, types } from './labels.ts';
import { TemplateEditor } from './TemplateEditor.tsx';

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
  'channels/channelIds',
  'template',
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

/** The "Create a rule" form: its fields follow the rule type, and the API's problems show next to them. */
export function RuleForm() {
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const channels = useAlertChannels();
  const formRef = useRef<HTMLFormElement>(null);
  const [edits, setEdits] = useState(0);
  const [type, setType] = useState<FormRuleType>('price');
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
    <FormField name={name} label={label} error={byField.get(name)} grow={grow}>
      {control}
    </FormField>
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
    <form
      className="card create-rule"
      onSubmit={submit}
      onInput={() => setEdits((n) => n + 1)}
      ref={formRef}
      aria-labelledby="create-rule-title"
      noValidate
    >
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
      {channels.data?.length ? (
        <fieldset className="permissions">
          <legend>Channels (email, Telegram, Discord, Slack — add them under Channels)</legend>
          <div className="check-grid">
            {channels.data.map((c) => (
              <label key={c.id} className="check">
                <input type="checkbox" name="channelIds" value={c.id} disabled={c.status !== 'enabled'} />{' '}
                {c.name ?? c.target}{' '}
                <span className="muted small">
                  ({c.type}
                  {c.status === 'enabled' ? '' : `, ${c.status}`})
                </span>
              </label>
            ))}
          </div>
          {byField.has('channels/channelIds') ? (
            <span className="field-error">{byField.get('channels/channelIds')}</span>
          ) : null}
        </fieldset>
      ) : null}
      <TemplateEditor type={type} form={formRef} version={edits} />
      {byField.has('template') ? <span className="field-error">{byField.get('template')}</span> : null}
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
      <BacktestPreview body={() => ruleBody(type, new FormData(formRef.current!))} />
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
