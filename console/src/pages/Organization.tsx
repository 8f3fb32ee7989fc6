import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import type { Invitation, Organization as Org, OrganizationMember } from '../api/types.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { SecretPanel } from '../components/SecretPanel.tsx';
import { SkeletonRows } from '../components/Skeleton.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { formatDateTime } from '../lib/format.ts';

const manages = (org: Org) => org.role === 'owner' || org.role === 'admin';
/** The secret an invitation link carries after `#invitation=` (never sent to a server by the browser). */
const invitationInLink = () =>
  new URLSearchParams(window.location.hash.slice(1)).get('invitation') ?? undefined;

/** Organizations: the ones you belong to, their members and roles, invitations (the link shown once). */
export default function OrganizationPage() {
  const orgs = useQuery({
    queryKey: ['organizations'],
    queryFn: () => unwrap(api.GET('/api/organizations')),
  });
  const [chosen, setChosen] = useState<string>();
  const list = orgs.data?.data ?? [];
  const current = list.find((o) => o.id === chosen) ?? list.find((o) => !o.personal) ?? list[0];

  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>Organization</h1>
          <p className="muted">
            An organization owns API keys, alerts, channels, webhooks, labels, portfolio and usage. Your
            personal organization holds what you made on your own; create one to share with others.
          </p>
        </div>
      </div>
      <AcceptInvitation />
      <ErrorNote error={orgs.error} onRetry={() => orgs.refetch()} />
      <section className="card" aria-labelledby="orgs-title">
        <h2 id="orgs-title">Your organizations</h2>
        {list.length > 1 ? (
          <div className="field">
            <label htmlFor="org-pick">Show</label>
            <select id="org-pick" value={current?.id} onChange={(e) => setChosen(e.target.value)}>
              {list.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.personal ? `${o.name} (personal)` : o.name} — {o.role}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <CreateOrganization onCreated={setChosen} />
      </section>
      {current ? <OrganizationDetail org={current} /> : null}
    </div>
  );
}

function CreateOrganization({ onCreated }: { onCreated(id: string): void }) {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (name: string) => unwrap(api.POST('/api/organizations', { body: { name } })),
    onSuccess: (org) => {
      queryClient.invalidateQueries({ queryKey: ['organizations'] });
      onCreated(org.id);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    create.mutate(name, { onSuccess: () => (event.target as HTMLFormElement).reset() });
  };
  return (
    <form className="form-row" onSubmit={submit}>
      <div className="field grow">
        <label htmlFor="org-name">New organization</label>
        <input id="org-name" name="name" required maxLength={100} placeholder="Research desk" />
      </div>
      <button type="submit" className="button" disabled={create.isPending}>
        Create
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

function OrganizationDetail({ org }: { org: Org }) {
  const members = useQuery({
    queryKey: ['organizations', org.id, 'members'],
    queryFn: () => unwrap(api.GET('/api/organizations/{id}/members', { params: { path: { id: org.id } } })),
  });
  return (
    <>
      <section className="card flush" aria-labelledby="members-title">
        <header className="card-header">
          <h2 id="members-title">
            Members of {org.name} <span className="badge">{org.plan}</span>
          </h2>
        </header>
        <ErrorNote error={members.error} onRetry={() => members.refetch()} />
        <div className="table-scroll">
          <table className="data">
            <TableHead columns={['Email', 'Role', 'Joined']} />
            <tbody>
              {members.data ? (
                members.data.data.map((m: OrganizationMember) => (
                  <tr key={m.userId}>
                    <th scope="row">{m.email}</th>
                    <td>
                      <span className="badge">{m.role}</span>
                    </td>
                    <td>{formatDateTime(m.joinedAt)}</td>
                  </tr>
                ))
              ) : (
                <SkeletonRows rows={2} columns={3} />
              )}
            </tbody>
          </table>
        </div>
      </section>
      {manages(org) && !org.personal ? <Invitations org={org} /> : null}
    </>
  );
}

function Invitations({ org }: { org: Org }) {
  const queryClient = useQueryClient();
  const key = ['organizations', org.id, 'invitations'];
  const [link, setLink] = useState<string>();
  const pending = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api.GET('/api/organizations/{id}/invitations', { params: { path: { id: org.id } } })),
  });
  const invite = useMutation({
    mutationFn: (body: { role: 'admin' | 'member' | 'viewer'; email?: string }) =>
      unwrap(api.POST('/api/organizations/{id}/invitations', { params: { path: { id: org.id } }, body })),
    onSuccess: (created) => {
      setLink(created.link ?? created.token);
      queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    invite.mutate(
      { role: String(form.get('role')) as 'member', ...(email ? { email } : {}) },
      { onSuccess: () => (event.target as HTMLFormElement).reset() },
    );
  };
  return (
    <section className="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite</h2>
      {link ? (
        <SecretPanel
          title="Invitation created"
          secret={link}
          warning="Send this link to the person you invite. It is shown only once, works once, and expires."
          onDone={() => setLink(undefined)}
        />
      ) : null}
      <form className="form-row" onSubmit={submit}>
        <div className="field grow">
          <label htmlFor="invite-email">Email (optional)</label>
          <input id="invite-email" name="email" type="email" maxLength={254} />
        </div>
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" name="role" defaultValue="member">
            <option value="admin">admin</option>
            <option value="member">member</option>
            <option value="viewer">viewer</option>
          </select>
        </div>
        <button type="submit" className="button" disabled={invite.isPending}>
          Create link
        </button>
      </form>
      <ErrorNote error={invite.error} />
      {pending.data?.data.length ? (
        <ul className="small">
          {pending.data.data.map((i: Invitation) => (
            <li key={i.id}>
              {i.email ?? 'anyone with the link'} as {i.role}, expires {formatDateTime(i.expiresAt)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function AcceptInvitation() {
  const queryClient = useQueryClient();
  const [token] = useState(invitationInLink);
  const accept = useMutation({
    mutationFn: (secret: string) => unwrap(api.POST('/api/invitations/accept', { body: { token: secret } })),
    onSuccess: () => {
      window.history.replaceState(null, '', window.location.pathname);
      queryClient.invalidateQueries({ queryKey: ['organizations'] });
    },
  });
  if (!token) return null;
  return (
    <section className="card" aria-labelledby="accept-title">
      <h2 id="accept-title">You are invited</h2>
      {accept.data ? (
        <p>
          You joined {accept.data.name} as {accept.data.role}.
        </p>
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => accept.mutate(token)}
          disabled={accept.isPending}
        >
          Accept the invitation
        </button>
      )}
      <ErrorNote error={accept.error} />
    </section>
  );
}
