import type { Clock } from '../../shared/clock.ts';
import { newId } from '../../shared/ids.ts';
import type { Permission } from '../accounts/index.ts';
import type { ClientCredentials, Clients } from './clients.ts';
import type { Grants } from './grants.ts';
import { OAuthError } from './oauth-error.ts';
import { isVerifierShaped, verifierMatches } from './pkce.ts';
import type { OAuthAccountsPort, OAuthOptions } from './ports.ts';
import type { OAuthRepository } from './repository.ts';
import { formatScope, parseScope } from './scope.ts';
import { hashSecret, newRefreshToken, refreshTokenPrefix } from './secrets.ts';
import type { OAuthClient, OAuthGrant } from './tables.ts';

/** A successful token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** The token endpoint's form fields this server reads. */
export type TokenForm = Partial<
  Record<'grant_type' | 'code' | 'redirect_uri' | 'code_verifier' | 'refresh_token' | 'scope', string>
>;

/**
 * The token endpoint (authorization_code with PKCE, refresh_token with rotation) and revocation (RFC 7009).
 * A code or refresh token presented a second time is a replay: the grant it belongs to is revoked with every
 * token issued under it.
 */
export function createTokenEndpoint(deps: {
  repo: OAuthRepository;
  clients: Clients;
  grants: Grants;
  accounts: OAuthAccountsPort;
  clock: Clock;
  options: OAuthOptions;
}) {
  const { repo, clients, grants, accounts, clock, options } = deps;
  const required = (form: TokenForm, field: keyof TokenForm): string => {
    const value = form[field];
    if (!value) throw new OAuthError('invalid_request', `${field} is required`);
    return value;
  };

  /** A new refresh token and access token for a live grant. */
  async function issue(
    grant: Pick<OAuthGrant, 'id' | 'user_id'>,
    client: OAuthClient,
    scopes: readonly Permission[],
    refresh: string,
  ): Promise<TokenResponse> {
    const access = await accounts.issueGrantToken({
      userId: grant.user_id,
      grantId: grant.id,
      name: `OAuth: ${client.name}`,
      permissions: scopes,
      expiresAt: clock.now() + options.accessTokenTtlMs,
    });
    return {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: Math.round(options.accessTokenTtlMs / 1000),
      refresh_token: refresh,
      scope: formatScope(scopes),
    };
  }

  async function exchangeCode(client: OAuthClient, form: TokenForm): Promise<TokenResponse> {
    const code = required(form, 'code');
    const redirectUri = required(form, 'redirect_uri');
    const verifier = required(form, 'code_verifier');
    if (!isVerifierShaped(verifier))
      throw new OAuthError(
        'invalid_request',
        'code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]',
      );
    const codeHash = hashSecret(code);
    const stored = await repo.findCode(codeHash);
    if (!stored || stored.client_id !== client.id)
      throw new OAuthError('invalid_grant', 'the authorization code is not known to this client');
    if (stored.used_at !== null) {
      if (stored.grant_id) {
        // audit: OAuth grant revoked, authorization code replayed (stored.grant_id, client.id)
        await grants.revokeFamily(stored.grant_id, 'code_reuse');
      }
      throw new OAuthError(
        'invalid_grant',
        'the authorization code was used already; its tokens are revoked',
      );
    }
    if (stored.expires_at <= clock.now())
      throw new OAuthError('invalid_grant', 'the authorization code has expired');
    if (stored.redirect_uri !== redirectUri)
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request');
    if (!verifierMatches(verifier, stored.code_challenge))
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (S256)');
    const now = clock.now();
    const grant: OAuthGrant = {
      id: newId('ogr'),
      client_id: client.id,
      user_id: stored.user_id,
      scopes: stored.scopes,
      created_at: now,
      revoked_at: null,
      revoked_reason: null,
    };
    const refresh = newRefreshToken();
    const redeemed = await repo.redeemCode(codeHash, now, grant, {
      token_hash: hashSecret(refresh),
      grant_id: grant.id,
      created_at: now,
      expires_at: now + options.refreshTokenTtlMs,
      used_at: null,
    });
    if (!redeemed) throw new OAuthError('invalid_grant', 'the authorization code was used already');
    // audit: OAuth grant issued (grant.id, client.id, stored.user_id, scopes)
    return issue(grant, client, stored.scopes as Permission[], refresh);
  }

  async function refresh(client: OAuthClient, form: TokenForm): Promise<TokenResponse> {
    const presented = required(form, 'refresh_token');
    const hash = hashSecret(presented);
    const stored = await repo.findRefreshToken(hash);
    const grant = stored && (await repo.findGrant(stored.grant_id));
    if (!stored || !grant || grant.client_id !== client.id)
      throw new OAuthError('invalid_grant', 'the refresh token is not known to this client');
    if (grant.revoked_at !== null)
      throw new OAuthError('invalid_grant', 'the grant of this refresh token was revoked');
    const replayed = async (): Promise<never> => {
      // audit: OAuth grant revoked, refresh token reused (grant.id, client.id, grant.user_id)
      await grants.revokeFamily(grant.id, 'refresh_token_reuse');
      throw new OAuthError(
        'invalid_grant',
        'the refresh token was used already; every token of its grant is revoked',
      );
    };
    if (stored.used_at !== null) return replayed();
    if (stored.expires_at <= clock.now())
      throw new OAuthError('invalid_grant', 'the refresh token has expired');
    let scopes = grant.scopes as Permission[];
    if (form.scope !== undefined) {
      const parsed = parseScope(form.scope);
      const wider = 'unknown' in parsed ? parsed.unknown : parsed.scopes.filter((s) => !scopes.includes(s));
      if (wider.length || !('scopes' in parsed) || parsed.scopes.length === 0)
        throw new OAuthError(
          'invalid_scope',
          `scope may only narrow the grant's scopes (${formatScope(scopes)})`,
        );
      scopes = parsed.scopes;
    }
    // The access token first, then the rotation in one transaction: a write that fails leaves the presented
    // refresh token unused (the client retries with it), never a client holding neither token.
    const next = newRefreshToken();
    const response = await issue(grant, client, scopes, next);
    const now = clock.now();
    const rotated = await repo.rotateRefreshToken(hash, now, {
      token_hash: hashSecret(next),
      grant_id: grant.id,
      created_at: now,
      expires_at: now + options.refreshTokenTtlMs,
      used_at: null,
    });
    // A concurrent use won the rotation: a replay, which also revokes the access token just issued.
    if (!rotated) return replayed();
    return response;
  }

  return {
    async token(form: TokenForm, credentials: ClientCredentials): Promise<TokenResponse> {
      const grantType = required(form, 'grant_type');
      const client = await clients.authenticateClient(credentials);
      if (grantType === 'authorization_code') return exchangeCode(client, form);
      if (grantType === 'refresh_token') return refresh(client, form);
      throw new OAuthError(
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token',
      );
    },

    /**
     * RFC 7009. Either kind of token revokes its whole grant (an access token's refresh tokens too, §2.1
     * allows it). An unknown token is answered like a revoked one; another client's token is refused.
     */
    async revoke(
      form: { token?: string; token_type_hint?: string },
      credentials: ClientCredentials,
    ): Promise<void> {
      const client = await clients.authenticateClient(credentials);
      const token = form.token;
      if (!token) throw new OAuthError('invalid_request', 'token is required');
      const grantId = token.startsWith(refreshTokenPrefix)
        ? (await repo.findRefreshToken(hashSecret(token)))?.grant_id
        : await accounts.grantOfToken(token);
      if (!grantId) return;
      const grant = await repo.findGrant(grantId);
      if (!grant) return;
      if (grant.client_id !== client.id)
        throw new OAuthError('invalid_request', 'the token was not issued to this client');
      // audit: OAuth grant revoked by its client (grant.id, client.id, grant.user_id)
      await grants.revokeFamily(grant.id, 'client');
    },
  };
}
