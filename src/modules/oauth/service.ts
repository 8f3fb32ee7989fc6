import type { Clock } from '../../shared/clock.ts';
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
  const grants = createGrants({ repo, accounts: deps.accounts, clock });
  const authorization = createAuthorization({ repo, clients, clock, options: deps.options });
  const endpoint = createTokenEndpoint({ ...deps, clients, grants });

  /** Revokes every grant of the client (tokens included), then deletes it. */
  async function deleteClient(ownerId: string | null, id: string): Promise<void> {
    const client = ownerId === null ? await repo.findClient(id) : await clients.ownedClient(ownerId, id);
    if (!client) throw new AppError('not_found', `no OAuth client with id ${id}`);
    for (const grant of await repo.listClientGrants(client.id)) {
      // audit: OAuth grant revoked, its client was deleted (grant.id, client.id, grant.user_id)
      await grants.revokeFamily(grant.id, 'client_deleted');
    }
    await repo.deleteClient(client.id);
  }

  return {
    registerClient: clients.registerClient,
    listClients: clients.listClients,
    listAllClients: clients.listAllClients,
    deleteClient,
    describeAuthorization: authorization.describe,
    decideAuthorization: authorization.decide,
    token: endpoint.token,
    revoke: endpoint.revoke,
    listGrants: grants.listGrants,
    revokeGrant: grants.revokeGrant,
  };
}
