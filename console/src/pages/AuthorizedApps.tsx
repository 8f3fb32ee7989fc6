import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { SecretPanel } from '../components/SecretPanel.tsx';
import { SkeletonRows } from '../components/Skeleton.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { formatDateTime, formatRelative } from '../lib/format.ts';

interface Pending {
  kind: 'grant' | 'client';
  id: string;
  name: string;
}

/** Settings → Authorized apps: the apps holding access to the account, and the OAuth clients it registered. */
export default function AuthorizedApps() {
  const queryClient = useQueryClient();
  const grants = useQuery({
    queryKey: ['oauth-grants'],
    queryFn: () => unwrap(api.GET('/api/oauth/grants')).then((page) => page.data),
  });
  const clients = useQuery({
    queryKey: ['oauth-clients'],
    queryFn: () => unwrap(api.GET('/api/oauth/clients')).then((page) => page.data),
  });
  const [secret, setSecret] = useState<{ name: string; id: string; secret: string | null }>();
  const [pending, setPending] = useState<Pending>();
  const now = Date.now();

  const remove = async (target: Pending) => {
    const path = { params: { path: { id: target.id } } };
    if (target.kind === 'grant') await unwrap(api.DELETE('/api/oauth/grants/{id}', path));
    else await unwrap(api.DELETE('/api/oauth/clients/{id}', path));
    await queryClient.invalidateQueries({ queryKey: ['oauth-grants'] });
    await queryClient.invalidateQueries({ queryKey: ['oauth-clients'] });
  };

  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>Authorized apps</h1>
          <p className="muted">
            Apps you allowed to use your account through OAuth act with the permissions you granted them.
            Revoke an app to end its access at once.
          </p>
        </div>
      </div>
      <section className="card flush" aria-labelledby="grants-title">
        <header className="card-header">
          <h2 id="grants-title">Apps with access</h2>
        </header>
        <ErrorNote error={grants.error} onRetry={() => grants.refetch()} />
        <div className="table-scroll">
          <table className="data">
            <TableHead columns={['App', 'Permissions', 'Authorized', { label: 'Actions', hidden: true }]} />
            <tbody>
              {grants.data ? (
                grants.data.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="muted">
                      No app has access to your account.
                    </td>
                  </tr>
                ) : (
                  grants.data.map((grant) => (
                    <tr key={grant.id} data-grant-id={grant.id}>
                      <th scope="row">{grant.client.name}</th>
                      <td className="small">{grant.scopes.join(', ')}</td>
                      <td title={formatDateTime(grant.createdAt)}>{formatRelative(grant.createdAt, now)}</td>
                      <td className="row-actions">
                        <button
                          type="button"
                          className="button small danger"
                          aria-label={`Revoke ${grant.client.name}`}
                          onClick={() => setPending({ kind: 'grant', id: grant.id, name: grant.client.name })}
                        >
                          Revoke
                        </button>
                      </td>
                    </tr>
                  ))
                )
              ) : (
                <SkeletonRows rows={2} columns={4} />
              )}
            </tbody>
          </table>
        </div>
      </section>
      {secret ? (
        <SecretPanel
          title={`Client “${secret.name}” registered — client id ${secret.id}`}
          secret={secret.secret ?? secret.id}
          warning={
            secret.secret
              ? 'Copy the client secret now. It is shown only once — Meridian stores only a hash.'
              : 'A public client has no secret: the app proves itself with PKCE. This is its client id.'
          }
          onDone={() => setSecret(undefined)}
        />
      ) : null}
      <RegisterClient onRegistered={setSecret} />
      <section className="card flush" aria-labelledby="clients-title">
        <header className="card-header">
          <h2 id="clients-title">Your OAuth clients</h2>
        </header>
        <ErrorNote error={clients.error} onRetry={() => clients.refetch()} />
        <div className="table-scroll">
          <table className="data">
            <TableHead
              columns={[
                'Name',
                'Client id',
                'Type',
                'Redirect URIs',
                'Created',
                { label: 'Actions', hidden: true },
              ]}
            />
            <tbody>
              {clients.data ? (
                clients.data.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="muted">
                      You have not registered an app. Register one above to let it ask for access.
                    </td>
                  </tr>
                ) : (
                  clients.data.map((client) => (
                    <tr key={client.id} data-client-id={client.id}>
                      <th scope="row">{client.name}</th>
                      <td>
                        <code>{client.id}</code>
                      </td>
                      <td>{client.type}</td>
                      <td className="small">{client.redirectUris.join(' ')}</td>
                      <td title={formatDateTime(client.createdAt)}>
                        {formatRelative(client.createdAt, now)}
                      </td>
                      <td className="row-actions">
                        <button
                          type="button"
                          className="button small danger"
                          aria-label={`Delete ${client.name}`}
                          onClick={() => setPending({ kind: 'client', id: client.id, name: client.name })}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))
                )
              ) : (
                <SkeletonRows rows={2} columns={6} />
              )}
            </tbody>
          </table>
        </div>
      </section>
      {pending ? (
        <ConfirmDialog
          title={pending.kind === 'grant' ? `Revoke “${pending.name}”?` : `Delete client “${pending.name}”?`}
          confirmLabel={pending.kind === 'grant' ? 'Revoke access' : 'Delete client'}
          danger
          onConfirm={() => remove(pending)}
          onClose={() => setPending(undefined)}
        >
          <p>
            {pending.kind === 'grant'
              ? 'Its access and refresh tokens stop working at once, and its open push connections close.'
              : 'Every token issued to this client is revoked, for every account that authorized it.'}
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function RegisterClient({
  onRegistered,
}: {
  onRegistered(value: { name: string; id: string; secret: string | null }): void;
}) {
  const queryClient = useQueryClient();
  const register = useMutation({
    mutationFn: (body: { name: string; redirectUris: string[]; confidential: boolean }) =>
      unwrap(api.POST('/api/oauth/clients', { body })),
    onSuccess: (created) => {
      onRegistered({ name: created.client.name, id: created.client.id, secret: created.secret });
      queryClient.invalidateQueries({ queryKey: ['oauth-clients'] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    register.mutate(
      {
        name: String(form.get('name') ?? '').trim(),
        redirectUris: String(form.get('redirectUris') ?? '')
          .split(/\s+/)
          .filter(Boolean),
        confidential: form.get('confidential') === 'on',
      },
      { onSuccess: () => (event.target as HTMLFormElement).reset() },
    );
  };
  return (
    <form className="card create-key" onSubmit={submit} aria-labelledby="register-title">
      <h2 id="register-title">Register an OAuth client</h2>
      <div className="form-row">
        <div className="field grow">
          <label htmlFor="client-name">Name shown on the consent page</label>
          <input id="client-name" name="name" required maxLength={100} autoComplete="off" />
        </div>
      </div>
      <div className="field grow">
        <label htmlFor="client-redirects">Redirect URIs (one per line; matched exactly)</label>
        <textarea
          id="client-redirects"
          name="redirectUris"
          required
          rows={2}
          placeholder="https://app.example.com/callback"
        />
      </div>
      <label className="check">
        <input type="checkbox" name="confidential" /> Confidential (a server-side app that can keep a secret)
      </label>
      <ErrorNote error={register.error} />
      <button type="submit" className="button primary" disabled={register.isPending}>
        {register.isPending ? 'Registering…' : 'Register client'}
      </button>
    </form>
  );
}
