import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { OAuthError } from './oauth-error.ts';
import { type OAuthClientView, presentClient } from './present.ts';
import { redirectUriProblem } from './redirect-uri.ts';
import type { OAuthRepository } from './repository.ts';
import { hashSecret, newClientSecret, secretMatches } from './secrets.ts';
import type { OAuthClient } from './tables.ts';

export interface ClientRegistration {
  name: string;
  redirectUris: string[];
  confidential: boolean;
}

/** How a client presented itself at the token or revocation endpoint. */
export interface ClientCredentials {
  /** From HTTP Basic (RFC 6749 §2.3.1), already form-decoded. */
  basic?: { id: string; secret: string };
  /** From the form body. */
  clientId?: string;
  clientSecret?: string;
}

const maxRedirectUris = 10;

/** Client registration (operator CLI or an account in the console) and client authentication. */
export function createClients(deps: { repo: OAuthRepository; clock: Clock }) {
  const { repo, clock } = deps;

  async function registerClient(
    ownerId: string | null,
    input: ClientRegistration,
  ): Promise<{ client: OAuthClientView; secret: string | null }> {
    const name = input.name.trim();
    if (!name || name.length > 100)
      throw new AppError('validation_failed', 'name must have 1 to 100 characters', {
        errors: [{ pointer: '/body/name', message: 'must have 1 to 100 characters' }],
      });
    const uris = [...new Set(input.redirectUris)];
    if (uris.length === 0 || uris.length > maxRedirectUris)
      throw new AppError('validation_failed', `give 1 to ${maxRedirectUris} redirect URIs`, {
        errors: [{ pointer: '/body/redirectUris', message: `must have 1 to ${maxRedirectUris} items` }],
      });
    const problems = uris.flatMap((uri, i) => {
      const problem = redirectUriProblem(uri);
      return problem ? [{ pointer: `/body/redirectUris/${i}`, message: `${uri}: ${problem}` }] : [];
    });
    if (problems.length)
      throw new AppError('validation_failed', problems.map((p) => p.message).join('; '), {
        errors: problems,
      });
    const secret = input.confidential ? newClientSecret() : null;
    const client: OAuthClient = {
      id: newId('oac'),
      owner_id: ownerId,
      name,
      secret_hash: secret === null ? null : hashSecret(secret),
      redirect_uris: uris,
      created_at: clock.now(),
    };
    await repo.insertClient(client);
    return { client: presentClient(client), secret };
  }

  /** A client an account may manage: its own (another account's answers like a missing one). */
  async function ownedClient(ownerId: string, id: string): Promise<OAuthClient> {
    const client = await repo.findClient(id);
    if (!client || client.owner_id !== ownerId)
      throw new AppError('not_found', `no OAuth client with id ${id}`);
    return client;
  }

  /**
   * The client a token or revocation request comes from, authenticated: a confidential client by its secret
   * (Basic or form, not both), a public one by its id alone. Anything else is `invalid_client`.
   */
  async function authenticateClient(credentials: ClientCredentials): Promise<OAuthClient> {
    const { basic, clientId, clientSecret } = credentials;
    if (basic && clientSecret !== undefined)
      throw new OAuthError('invalid_request', 'authenticate with HTTP Basic or client_secret, not both');
    if (basic && clientId !== undefined && clientId !== basic.id)
      throw new OAuthError(
        'invalid_request',
        'client_id differs from the client authenticated with HTTP Basic',
      );
    const id = basic?.id ?? clientId;
    if (!id) throw new OAuthError('invalid_client', 'client authentication is required (client_id)');
    const client = await repo.findClient(id);
    if (!client) throw new OAuthError('invalid_client', 'the client is not known');
    const secret = basic?.secret ?? clientSecret;
    if (client.secret_hash === null) {
      if (secret) throw new OAuthError('invalid_client', 'this is a public client: it has no secret to send');
      return client;
    }
    if (!secret || !secretMatches(secret, client.secret_hash))
      throw new OAuthError('invalid_client', 'the client secret is missing or wrong');
    return client;
  }

  return {
    registerClient,
    ownedClient,
    authenticateClient,
    findClient: (id: string) => repo.findClient(id),
    listClients: async (ownerId: string) => (await repo.listClients(ownerId)).map(presentClient),
    listAllClients: async () => (await repo.listAllClients()).map(presentClient),
  };
}

export type Clients = ReturnType<typeof createClients>;
