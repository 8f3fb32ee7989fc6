import type { Clock } from '../../shared/clock.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import type { AuditLog } from '../audit/index.ts';
import { AppError } from '../../shared/errors.ts';
import { createAuthorization } from './authorization.ts';
import { createClients } from './clients.ts';
import { createGrants } from './grants.ts';
import type { OAuthAccountsPort, OAuthOptions } from './ports.ts';
import type { OAuthRepository } from './repository.ts';
import { createTokenEndpoint } from './token-endpoint.ts';

export interface OAuthDeps {
  repo: OAuthRepository;
  accounts: OAuthAccountsPort;
  clock: Clock;
  options: OAuthOptions;
  /** Where client registrations, grants and their revocations are recorded (no address: below HTTP). */
  audit?: AuditLog;
}

export type OAuthService = ReturnType<typeof createOAuthService>;

/**
 * The OAuth 2.0 authorization server: clients (clients.ts), the consent behind the authorization endpoint
 * (authorization.ts), the token and revocation endpoints (token-endpoint.ts) and grants as token families
 * (grants.ts). Access tokens are API tokens of the accounts module, tied to their grant.
 */
export function createOAuthService(deps: OAuthDeps) {
  const { repo, clock } = deps;
  const clients = createClients({ repo, clock });
  const grants = createGrants({ repo, accounts: deps.accounts, clock, audit: deps.audit });
  const authorization = createAuthorization({ repo, clients, clock, options: deps.options });
  const endpoint = createTokenEndpoint({ ...deps, clients, grants });

  /** Revokes every grant of the client (tokens included), then deletes it. */
  async function deleteClient(ownerId: string | null, id: string): Promise<void> {
    const client = ownerId === null ? await repo.findClient(id) : await clients.ownedClient(ownerId, id);
    if (!client) throw new AppError('not_found', `no OAuth client with id ${id}`);
    for (const grant of await repo.listClientGrants(client.id)) {
      await grants.revokeFamily(grant.id, 'client_deleted');
    }
    await repo.deleteClient(client.id);
  }

  const byOwner = (ownerId: string | null) =>
    ({ actorId: ownerId, credential: ownerId === null ? 'operator' : 'session', address: null }) as const;

  return {
    async registerClient(ownerId: string | null, input: Parameters<typeof clients.registerClient>[1]) {
      const registered = await clients.registerClient(ownerId, input);
      await deps.audit?.record({
        ...byOwner(ownerId),
        action: 'oauth.client_create',
        outcome: 'success',
        target: `oauth_client:${registered.client.id}`,
        detail: { name: registered.client.name, confidential: registered.secret !== null },
      });
      return registered;
    },
    listClients: clients.listClients,
    listAllClients: clients.listAllClients,
    async deleteClient(ownerId: string | null, id: string) {
      await deleteClient(ownerId, id);
      await deps.audit?.record({
        ...byOwner(ownerId),
        action: 'oauth.client_delete',
        outcome: 'success',
        target: `oauth_client:${id}`,
      });
    },
    describeAuthorization: authorization.describe,
    decideAuthorization: authorization.decide,
    token: endpoint.token,
    revoke: endpoint.revoke,
    listGrants: grants.listGrants,
    /**
     * Deletes what is past use for longer than `retainMs`: codes and refresh tokens past their expiry, grants
     * past their revocation or their last refresh token (with their access tokens).
     */
    pruneExpired: (retainMs: number, term?: LeaderTerm) => repo.deleteExpired(clock.now() - retainMs, term),
    /** The OAuth client (id and name) of each grant `ids`, by grant id. */
    async clientsOfGrants(ids: readonly string[]): Promise<Map<string, { id: string; name: string }>> {
      const rows = await repo.clientsOfGrants(ids);
      return new Map(rows.map((r) => [r.grant_id, { id: r.client_id, name: r.client_name }]));
    },
    revokeGrant: grants.revokeGrant,
  };
}
