import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import type { NewWebhook, Webhook, WebhookEvent } from '../api/types.ts';
import { useWebhooks } from '../hooks/alerts.ts';
import { formatDateTime, formatRelative } from '../lib/format.ts';
import { fieldErrors } from '../lib/problems.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ErrorNote } from './ErrorNote.tsx';
import { SecretPanel } from './SecretPanel.tsx';
import { TableCard } from './TableCard.tsx';

const events: WebhookEvent[] = ['alert.triggered', 'onchain.flow'];

/** Webhook endpoints: register (signing secret shown once), list, rotate the secret, delete. */
export function WebhookEndpoints() {
  const webhooks = useWebhooks();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<{ title: string; secret: string; rotated: boolean }>();
  const [confirm, setConfirm] = useState<{ webhook: Webhook; action: 'rotate' | 'delete' }>();
  const columns = [
    'Endpoint',
    'Events',
    'Status',
    'Created',
    'Previous secret',
    { label: 'Actions', hidden: true },
  ];
  const now = Date.now();

  const act = async () => {
    if (!confirm) return;
    const path = { params: { path: { id: confirm.webhook.id } } };
    if (confirm.action === 'delete') await unwrap(api.DELETE('/api/webhooks/{id}', path));
    else {
      const rotated = await unwrap(api.POST('/api/webhooks/{id}/rotate', path));
      setSecret({
        title: `New signing secret for ${label(confirm.webhook)}`,
        secret: rotated.secret,
        rotated: true,
      });
    }
    await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  };

  return (
    <>
      {secret ? (
        <SecretPanel
          title={secret.title}
          secret={secret.secret}
          warning={`Copy this signing secret now. It is shown only once and cannot be shown again.${secret.rotated ? ' The previous secret keeps signing (as a second signature) for 24 hours, so you can switch your receiver over.' : ''}`}
          onDone={() => setSecret(undefined)}
        />
      ) : null}
      <CreateWebhook onCreated={(title, value) => setSecret({ title, secret: value, rotated: false })} />
      <TableCard
        id="webhooks-title"
        title="Endpoints"
        columns={columns}
        items={webhooks.data}
        row={(w) => (
          <tr key={w.id} data-webhook-id={w.id} className={w.status === 'enabled' ? undefined : 'inactive'}>
            <th scope="row">
              <span className="endpoint-url">{w.url}</span>
              {w.description ? <span className="muted small"> · {w.description}</span> : null}
            </th>
            <td className="small">{w.events.join(', ')}</td>
            <td title={w.disabledReason ?? undefined}>
              <span className={`badge ${w.status === 'enabled' ? 'ok' : 'out'}`}>{w.status}</span>
            </td>
            <td title={formatDateTime(w.createdAt)}>{formatRelative(w.createdAt, now)}</td>
            <td title={formatDateTime(w.previousSecretExpiresAt)}>
              {w.previousSecretExpiresAt && Date.parse(w.previousSecretExpiresAt) > now
                ? `signs until ${formatRelative(w.previousSecretExpiresAt, now).replace(/^in /, 'in ')}`
                : '—'}
            </td>
            <td>
              <div className="row-actions">
                <button
                  type="button"
                  className="button small ghost"
                  aria-label={`Rotate the secret of ${label(w)}`}
                  onClick={() => setConfirm({ webhook: w, action: 'rotate' })}
                >
                  Rotate
                </button>
                <button
                  type="button"
                  className="button small danger"
                  aria-label={`Delete ${label(w)}`}
                  onClick={() => setConfirm({ webhook: w, action: 'delete' })}
                >
                  Delete
                </button>
              </div>
            </td>
          </tr>
        )}
        empty="No endpoints yet. Register one above."
        error={webhooks.error}
        onRetry={() => webhooks.refetch()}
        skeletonRows={2}
      />
      {confirm ? (
        <ConfirmDialog
          title={
            confirm.action === 'delete'
              ? `Delete ${label(confirm.webhook)}?`
              : `Rotate the secret of ${label(confirm.webhook)}?`
          }
          confirmLabel={confirm.action === 'delete' ? 'Delete endpoint' : 'Rotate secret'}
          danger={confirm.action === 'delete'}
          onConfirm={act}
          onClose={() => setConfirm(undefined)}
        >
          <p>
            {confirm.action === 'delete'
              ? 'Nothing more is sent to it, and its pending deliveries are dropped. This cannot be undone.'
              : 'A new signing secret is made and shown once. The previous one keeps signing for 24 hours.'}
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

const label = (w: Pick<Webhook, 'url' | 'description'>) => w.description || new URL(w.url).host;

function CreateWebhook({ onCreated }: { onCreated(title: string, secret: string): void }) {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: NewWebhook) => unwrap(api.POST('/api/webhooks', { body })),
    onSuccess: (created) => {
      onCreated(`Endpoint ${label(created)} registered`, created.secret);
      queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  const { byField, rest } = fieldErrors(create.error, ['url', 'description', 'events']);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const description = String(data.get('description') ?? '').trim();
    create.mutate(
      {
        url: String(data.get('url') ?? '').trim(),
        events: data.getAll('events').map(String) as WebhookEvent[],
        ...(description ? { description } : {}),
      },
      { onSuccess: () => form.reset() },
    );
  };
  const invalid = (name: string) =>
    byField.has(name) ? { 'aria-invalid': true, 'aria-describedby': `webhook-${name}-error` } : {};
  const message = (name: string) =>
    byField.has(name) ? (
      <span className="field-error" id={`webhook-${name}-error`}>
        {byField.get(name)}
      </span>
    ) : null;
  return (
    <form className="card" onSubmit={submit} aria-labelledby="create-webhook-title" noValidate>
      <h2 id="create-webhook-title">Register an endpoint</h2>
      <p className="muted small">
        Deliveries are signed (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>,{' '}
        <code>webhook-signature</code>) with a secret shown once. The URL must be https:// and public.
      </p>
      <div className="form-row">
        <div className={`field grow${byField.has('url') ? ' invalid' : ''}`}>
          <label htmlFor="webhook-url">URL</label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            required
            placeholder="https://example.com/meridian"
            {...invalid('url')}
          />
          {message('url')}
        </div>
        <div className={`field${byField.has('description') ? ' invalid' : ''}`}>
          <label htmlFor="webhook-description">Description (optional)</label>
          <input
            id="webhook-description"
            name="description"
            maxLength={200}
            placeholder="trading bot"
            {...invalid('description')}
          />
          {message('description')}
        </div>
      </div>
      <fieldset className="permissions" {...invalid('events')}>
        <legend>Events</legend>
        <div className="check-grid">
          {events.map((e) => (
            <label key={e} className="check">
              <input type="checkbox" name="events" value={e} defaultChecked={e === 'alert.triggered'} /> {e}
            </label>
          ))}
        </div>
        {message('events')}
      </fieldset>
      <ErrorNote error={create.error} errors={rest} />
      <button type="submit" className="button primary" disabled={create.isPending}>
        {create.isPending ? 'Registering…' : 'Register endpoint'}
      </button>
    </form>
  );
}
