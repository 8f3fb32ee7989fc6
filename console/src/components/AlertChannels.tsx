import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import type { AlertChannel, NewAlertChannel } from '../api/types.ts';
import { useAlertChannels } from '../hooks/alerts.ts';
import { formatDateTime, formatRelative } from '../lib/format.ts';
import { fieldErrors } from '../lib/problems.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ErrorNote } from './ErrorNote.tsx';
import { TableCard } from './TableCard.tsx';
import { testOutcome, testOutcomeKnown } from './test-delivery.ts';

type ChannelType = AlertChannel['type'];
const types: { type: ChannelType; label: string }[] = [
  { type: 'email', label: 'Email' },
  { type: 'telegram', label: 'Telegram' },
  { type: 'discord', label: 'Discord' },
  { type: 'slack', label: 'Slack' },
];
const label = (c: Pick<AlertChannel, 'name' | 'target'>) => c.name || c.target;

/**
 * Alert channels: add (an email address confirms a code first), list, verify, send a test message, delete.
 * Credentials never come back.
 */
export function AlertChannels() {
  const channels = useAlertChannels();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<AlertChannel>();
  const now = Date.now();
  return (
    <>
      <CreateChannel />
      <TableCard
        id="channels-title"
        title="Channels"
        columns={['Channel', 'Type', 'Status', 'Added', { label: 'Actions', hidden: true }]}
        items={channels.data}
        row={(c) => (
          <tr key={c.id} data-channel-id={c.id} className={c.status === 'enabled' ? undefined : 'inactive'}>
            <th scope="row">
              <span className="endpoint-url">{c.target}</span>
              {c.name ? <span className="muted small"> · {c.name}</span> : null}
            </th>
            <td>{c.type}</td>
            <td title={c.disabledReason ?? undefined}>
              <span className={`badge ${c.status === 'enabled' ? 'ok' : 'out'}`}>{c.status}</span>
            </td>
            <td title={formatDateTime(c.createdAt)}>{formatRelative(c.createdAt, now)}</td>
            <td>
              <div className="row-actions">
                {c.status === 'unverified' ? <VerifyEmail channel={c} /> : null}
                {c.status === 'enabled' ? <SendTest channel={c} /> : null}
                <button
                  type="button"
                  className="button small danger"
                  aria-label={`Delete ${label(c)}`}
                  onClick={() => setRemoving(c)}
                >
                  Delete
                </button>
              </div>
            </td>
          </tr>
        )}
        empty="No channels yet. Add one above, then name it in a rule."
        error={channels.error}
        onRetry={() => channels.refetch()}
        skeletonRows={2}
      />
      {removing ? (
        <ConfirmDialog
          title={`Delete ${label(removing)}?`}
          confirmLabel="Delete channel"
          danger
          onConfirm={async () => {
            await unwrap(api.DELETE('/api/alert-channels/{id}', { params: { path: { id: removing.id } } }));
            await queryClient.invalidateQueries({ queryKey: ['alert-channels'] });
          }}
          onClose={() => setRemoving(undefined)}
        >
          <p>
            Rules naming it stop sending to it, and its pending messages are dropped. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/**
 * "Send test": queues one test message in the outbox, then follows its delivery in the channel's delivery log
 * until it is delivered or failed (or its first attempt failed and it waits for a retry).
 */
function SendTest({ channel }: { channel: AlertChannel }) {
  const send = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/alert-channels/{id}/test', { params: { path: { id: channel.id } } })),
  });
  const sent = send.data;
  const followed = useQuery({
    queryKey: ['alert-channel-test', channel.id, sent?.id],
    enabled: sent !== undefined,
    queryFn: async () => {
      const page = await unwrap(
        api.GET('/api/alert-channels/{id}/deliveries', {
          params: { path: { id: channel.id }, query: { limit: 20 } },
        }),
      );
      return page.data.find((d) => d.id === sent?.id) ?? sent;
    },
    refetchInterval: (query) => (testOutcomeKnown(query.state.data) ? false : 500),
  });
  const delivery = followed.data ?? sent;
  const outcome = delivery ? testOutcome(delivery) : undefined;
  return (
    <>
      <button
        type="button"
        className="button small"
        aria-label={`Send a test message to ${label(channel)}`}
        disabled={send.isPending}
        onClick={() => send.mutate()}
      >
        Send test
      </button>
      {send.error ? (
        <span className="field-error" role="status">
          {send.error.message}
        </span>
      ) : outcome ? (
        <span className={`badge ${outcome.tone}`} role="status" data-test-delivery={delivery?.id}>
          {outcome.text}
        </span>
      ) : null}
    </>
  );
}

function VerifyEmail({ channel }: { channel: AlertChannel }) {
  const queryClient = useQueryClient();
  const verify = useMutation({
    mutationFn: (code: string) =>
      unwrap(
        api.POST('/api/alert-channels/{id}/verify', { params: { path: { id: channel.id } }, body: { code } }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alert-channels'] }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    verify.mutate(String(new FormData(event.currentTarget).get('code') ?? '').trim());
  };
  const id = `verify-${channel.id}`;
  return (
    <form className="inline-form" onSubmit={submit} aria-label={`Verify ${channel.target}`}>
      <label htmlFor={id} className="visually-hidden">
        Code emailed to {channel.target}
      </label>
      <input
        id={id}
        name="code"
        inputMode="numeric"
        pattern="[0-9]{6}"
        maxLength={6}
        placeholder="6-digit code"
        size={10}
        aria-invalid={verify.isError || undefined}
      />
      <button type="submit" className="button small" disabled={verify.isPending}>
        Verify
      </button>
      {verify.error ? <span className="field-error">{verify.error.message}</span> : null}
    </form>
  );
}

function CreateChannel() {
  const queryClient = useQueryClient();
  const [type, setType] = useState<ChannelType>('email');
  const create = useMutation({
    mutationFn: (body: NewAlertChannel) => unwrap(api.POST('/api/alert-channels', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alert-channels'] }),
  });
  const { byField, rest } = fieldErrors(create.error, ['address', 'botToken', 'chatId', 'url', 'name']);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (key: string) => String(data.get(key) ?? '').trim();
    const name = text('name') || undefined;
    const body: NewAlertChannel =
      type === 'email'
        ? { type, address: text('address'), name }
        : type === 'telegram'
          ? { type, botToken: text('botToken'), chatId: text('chatId'), name }
          : { type, url: text('url'), name };
    create.mutate(body, { onSuccess: () => form.reset() });
  };
  const field = (name: string, title: string, props: Record<string, unknown> = {}) => (
    <div className={`field grow${byField.has(name) ? ' invalid' : ''}`}>
      <label htmlFor={`channel-${name}`}>{title}</label>
      <input
        id={`channel-${name}`}
        name={name}
        aria-invalid={byField.has(name) || undefined}
        aria-describedby={byField.has(name) ? `channel-${name}-error` : undefined}
        {...props}
      />
      {byField.has(name) ? (
        <span className="field-error" id={`channel-${name}-error`}>
          {byField.get(name)}
        </span>
      ) : null}
    </div>
  );
  return (
    <form className="card" onSubmit={submit} aria-labelledby="create-channel-title" noValidate>
      <h2 id="create-channel-title">Add a channel</h2>
      <p className="muted small">
        Where a rule's messages reach you. Tokens and webhook URLs are stored encrypted and never shown again;
        an email address gets a 6-digit code and receives nothing until you enter it here.
      </p>
      <div className="form-row">
        <div className="field">
          <label htmlFor="channel-type">Type</label>
          <select id="channel-type" value={type} onChange={(e) => setType(e.target.value as ChannelType)}>
            {types.map((t) => (
              <option key={t.type} value={t.type}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        {type === 'email'
          ? field('address', 'Email address', { type: 'email', placeholder: 'you@example.com' })
          : null}
        {type === 'telegram' ? (
          <>
            {field('botToken', 'Bot token', { placeholder: '123456:ABC…', autoComplete: 'off' })}
            {field('chatId', 'Chat id', { placeholder: '-1001234567890 or @channel' })}
          </>
        ) : null}
        {type === 'discord' || type === 'slack'
          ? field('url', 'Webhook URL', {
              type: 'url',
              autoComplete: 'off',
              placeholder:
                type === 'discord'
                  ? 'https://discord.com/api/webhooks/…'
                  : 'https://hooks.slack.com/services/…',
            })
          : null}
        {field('name', 'Name (optional)', { maxLength: 100, placeholder: 'trading desk' })}
      </div>
      <ErrorNote error={create.error} errors={rest} />
      <button type="submit" className="button primary" disabled={create.isPending}>
        Add channel
      </button>
    </form>
  );
}
