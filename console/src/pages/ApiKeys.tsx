import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import type { Account, Permission, Token } from '../api/types.ts';
import { ClientUsage } from '../components/ClientUsage.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { SecretPanel } from '../components/SecretPanel.tsx';
import { SkeletonRows } from '../components/Skeleton.tsx';
import { UsagePanel } from './Dashboard.tsx';
import { useAccount, useTokens } from '../hooks/queries.ts';
import { formatDateTime, formatRelative } from '../lib/format.ts';
import { TableHead } from '../components/TableHead.tsx';
import { TwoFactorCard } from '../components/TwoFactorCard.tsx';

const expiries = [
  { value: '', label: 'Never' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
  { value: '365d', label: '1 year' },
];

interface Secret {
  token: string;
  name: string;
  rotated: boolean;
}

export default function ApiKeys() {
  const account = useAccount().data as Account;
  const tokens = useTokens();
  const [secret, setSecret] = useState<Secret>();
  const [confirm, setConfirm] = useState<{ token: Token; action: 'revoke' | 'rotate' }>();

  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>API keys</h1>
          <p className="muted">
            Keys authenticate your scripts and bots: <code>Authorization: Bearer mrd_…</code>. They act with
            your role's permissions, or fewer if you narrow them.
          </p>
        </div>
      </div>
      <UsagePanel />
      <ClientUsage />
      <TwoFactorCard />
      {secret ? (
        <SecretPanel
          title={secret.rotated ? `New secret for “${secret.name}”` : `Key “${secret.name}” created`}
          secret={secret.token}
          warning={`Copy this secret now. It is shown only once — Meridian stores only a hash and cannot show it again.${secret.rotated ? ' The previous secret stopped working.' : ''}`}
          onDone={() => setSecret(undefined)}
        />
      ) : null}
      <CreateKey permissions={account.permissions} onCreated={setSecret} />
      <section className="card flush" aria-labelledby="keys-title">
        <header className="card-header">
          <h2 id="keys-title">Your keys</h2>
        </header>
        <ErrorNote error={tokens.error} onRetry={() => tokens.refetch()} />
        <div className="table-scroll">
          <table className="data keys-table">
            <TableHead
              columns={[
                'Name',
                'Key',
                'Permissions',
                'Created',
                'Last used',
                'Expires',
                'Status',
                { label: 'Actions', hidden: true },
              ]}
            />
            <tbody>
              {tokens.data ? (
                tokens.data.length === 0 ? (
                  <tr>
                    <td colSpan={8} className="muted">
                      No keys yet. Create one above.
                    </td>
                  </tr>
                ) : (
                  tokens.data.map((token) => (
                    <KeyRow
                      key={token.id}
                      token={token}
                      onAction={(action) => setConfirm({ token, action })}
                    />
                  ))
                )
              ) : (
                <SkeletonRows rows={3} columns={8} />
              )}
            </tbody>
          </table>
        </div>
      </section>
      {confirm ? (
        <ConfirmKeyAction
          token={confirm.token}
          action={confirm.action}
          onClose={() => setConfirm(undefined)}
          onRotated={(token) => setSecret({ token, name: confirm.token.name, rotated: true })}
        />
      ) : null}
    </div>
  );
}

function KeyRow({ token, onAction }: { token: Token; onAction(action: 'revoke' | 'rotate'): void }) {
  const now = Date.now();
  return (
    <tr data-token-id={token.id} className={token.status === 'active' ? undefined : 'inactive'}>
      <th scope="row">{token.name}</th>
      <td>
        <code>{token.start.endsWith('…') ? token.start : `${token.start}…`}</code>
      </td>
      <td className="small">{token.permissions ? token.permissions.join(', ') : 'All of your role'}</td>
      <td title={formatDateTime(token.createdAt)}>{formatRelative(token.createdAt, now)}</td>
      <td title={formatDateTime(token.lastUsedAt)}>
        {token.lastUsedAt ? formatRelative(token.lastUsedAt, now) : 'Never'}
      </td>
      <td title={formatDateTime(token.expiresAt)}>
        {token.expiresAt ? formatRelative(token.expiresAt, now) : 'Never'}
      </td>
      <td>
        <span className={`badge ${token.status === 'active' ? 'ok' : 'muted'}`}>{token.status}</span>
      </td>
      <td className="row-actions">
        {token.status === 'active' ? (
          <>
            <button
              type="button"
              className="button small ghost"
              onClick={() => onAction('rotate')}
              aria-label={`Rotate ${token.name}`}
            >
              Rotate
            </button>
            <button
              type="button"
              className="button small danger"
              onClick={() => onAction('revoke')}
              aria-label={`Revoke ${token.name}`}
            >
              Revoke
            </button>
          </>
        ) : null}
      </td>
    </tr>
  );
}

function CreateKey({
  permissions,
  onCreated,
}: {
  permissions: Permission[];
  onCreated(secret: Secret): void;
}) {
  const queryClient = useQueryClient();
  const [narrow, setNarrow] = useState(false);
  const create = useMutation({
    mutationFn: (body: { name: string; expiresIn?: string; permissions?: Permission[] }) =>
      unwrap(api.POST('/api/account/tokens', { body })),
    onSuccess: (created) => {
      onCreated({ token: created.token, name: created.details.name, rotated: false });
      queryClient.invalidateQueries({ queryKey: ['tokens'] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = form.getAll('permissions').map(String) as Permission[];
    const expiresIn = String(form.get('expiresIn') ?? '');
    create.mutate(
      {
        name: String(form.get('name') ?? '').trim(),
        ...(expiresIn ? { expiresIn } : {}),
        ...(narrow ? { permissions: chosen } : {}),
      },
      { onSuccess: () => (event.target as HTMLFormElement).reset() },
    );
  };
  return (
    <form className="card create-key" onSubmit={submit} aria-labelledby="create-title">
      <h2 id="create-title">Create a key</h2>
      <div className="form-row">
        <div className="field grow">
          <label htmlFor="key-name">Name</label>
          <input
            id="key-name"
            name="name"
            required
            maxLength={100}
            placeholder="trading-bot"
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor="key-expiry">Expires</label>
          <select id="key-expiry" name="expiresIn" defaultValue="90d">
            {expiries.map((e) => (
              <option key={e.value} value={e.value}>
                {e.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="permissions">
        <legend>Permissions</legend>
        <label className="check">
          <input type="checkbox" checked={narrow} onChange={(e) => setNarrow(e.target.checked)} />
          Narrow this key to fewer permissions than your role has
        </label>
        {narrow ? (
          <div className="check-grid">
            {permissions.map((p) => (
              <label key={p} className="check">
                <input type="checkbox" name="permissions" value={p} defaultChecked={p.endsWith(':read')} />{' '}
                {p}
              </label>
            ))}
          </div>
        ) : null}
      </fieldset>
      <ErrorNote error={create.error} />
      <button type="submit" className="button primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

function ConfirmKeyAction({
  token,
  action,
  onClose,
  onRotated,
}: {
  token: Token;
  action: 'revoke' | 'rotate';
  onClose(): void;
  onRotated(secret: string): void;
}) {
  const queryClient = useQueryClient();
  const path = { params: { path: { id: token.id } } };
  const revoke = action === 'revoke';
  const confirm = async () => {
    if (revoke) await unwrap(api.DELETE('/api/account/tokens/{id}', path));
    else onRotated((await unwrap(api.POST('/api/account/tokens/{id}/rotate', path))).token);
    await queryClient.invalidateQueries({ queryKey: ['tokens'] });
  };
  return (
    <ConfirmDialog
      title={revoke ? `Revoke “${token.name}”?` : `Rotate “${token.name}”?`}
      confirmLabel={revoke ? 'Revoke key' : 'Rotate key'}
      danger={revoke}
      onConfirm={confirm}
      onClose={onClose}
    >
      <p>
        {revoke
          ? 'Requests with this key will be refused from now on, and its open push connections close within seconds. This cannot be undone.'
          : 'A new secret replaces this one at once (same name, permissions and expiry). Anything still using the old secret stops working.'}
      </p>
    </ConfirmDialog>
  );
}
