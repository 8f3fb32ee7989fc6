import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import type { Permission } from '../accounts/index.ts';
import type { Clients } from './clients.ts';
import { isChallengeShaped } from './pkce.ts';
import type { OAuthOptions } from './ports.ts';
import type { OAuthRepository } from './repository.ts';
import { parseScope } from './scope.ts';
import { hashSecret, newCode } from './secrets.ts';

/** The query of an authorization request (RFC 6749 §4.1.1 with RFC 7636 §4.3), as the browser brought it. */
export interface AuthorizationRequest {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** What the consent page shows, or where the browser goes at once (an error the client must hear). */
type Redirect = { outcome: 'redirect'; redirectTo: string };
export type AuthorizationCheck =
  | { outcome: 'consent'; client: { id: string; name: string }; scopes: Permission[]; redirectUri: string }
  | Redirect;

/** The signed-in account deciding: its id and what it may grant (its own permissions). */
export interface Approver {
  userId: string;
  permissions: ReadonlySet<Permission>;
}

/**
 * The authorization endpoint's logic behind the console's consent page. Errors about the client or its
 * redirect URI are shown to the person (never redirected to an unverified address, RFC 6749 §4.1.2.1); every
 * other error goes back to the client on its redirect URI, with `state`.
 */
export function createAuthorization(deps: {
  repo: OAuthRepository;
  clients: Clients;
  clock: Clock;
  options: Pick<OAuthOptions, 'codeTtlMs'>;
}) {
  const { repo, clients, clock } = deps;

  const redirect = (uri: string, params: Record<string, string | undefined>, issuer: string): string => {
    const url = new URL(uri);
    for (const [key, value] of Object.entries(params))
      if (value !== undefined) url.searchParams.set(key, value);
    // RFC 9207: the issuer in the response, so a client talking to several servers can tell them apart.
    url.searchParams.set('iss', issuer);
    return url.toString();
  };

  /** The request's check, and how to answer the client an error once its redirect URI is known good. */
  async function check(request: AuthorizationRequest, approver: Approver, issuer: string) {
    if (!request.client_id)
      throw new AppError('validation_failed', 'client_id is required', {
        errors: [{ pointer: '/query/client_id', message: 'is required' }],
      });
    const client = await clients.findClient(request.client_id);
    if (!client) throw new AppError('bad_request', `no OAuth client with id ${request.client_id}`);
    const redirectUri = request.redirect_uri;
    if (!redirectUri || !client.redirect_uris.includes(redirectUri))
      throw new AppError(
        'bad_request',
        redirectUri
          ? `redirect_uri ${redirectUri} is not registered for this client (matched exactly)`
          : 'redirect_uri is required',
      );
    const fail = (error: string, description: string): Redirect => ({
      outcome: 'redirect',
      redirectTo: redirect(
        redirectUri,
        { error, error_description: description, state: request.state },
        issuer,
      ),
    });
    const result = (): AuthorizationCheck => {
      if (request.response_type !== 'code')
        return fail('unsupported_response_type', 'only response_type=code is supported');
      if (!request.code_challenge)
        return fail('invalid_request', 'PKCE is required: send code_challenge (S256)');
      if (request.code_challenge_method !== 'S256')
        return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
      if (!isChallengeShaped(request.code_challenge))
        return fail('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
      if (!request.scope) return fail('invalid_scope', 'scope is required: permissions, space-separated');
      const parsed = parseScope(request.scope);
      if ('unknown' in parsed) return fail('invalid_scope', `unknown scopes: ${parsed.unknown.join(' ')}`);
      // The person can grant only what they have; the token response's `scope` tells the client what it got.
      const scopes = parsed.scopes.filter((scope) => approver.permissions.has(scope));
      if (scopes.length === 0)
        return fail('invalid_scope', 'the account has none of the requested permissions');
      return { outcome: 'consent', client: { id: client.id, name: client.name }, scopes, redirectUri };
    };
    return { result: result(), fail };
  }

  return {
    /** Validates an authorization request for the consent page. */
    async describe(
      request: AuthorizationRequest,
      approver: Approver,
      issuer: string,
    ): Promise<AuthorizationCheck> {
      return (await check(request, approver, issuer)).result;
    },
    /** The person's answer: Allow issues a code, Deny tells the client `access_denied`; both redirect. */
    async decide(
      request: AuthorizationRequest,
      approver: Approver,
      issuer: string,
      allow: boolean,
    ): Promise<{ redirectTo: string }> {
      const { result, fail } = await check(request, approver, issuer);
      if (result.outcome === 'redirect') return { redirectTo: result.redirectTo };
      if (!allow) return { redirectTo: fail('access_denied', 'the account denied the request').redirectTo };
      const code = newCode();
      const now = clock.now();
      await repo.insertCode({
        code_hash: hashSecret(code),
        client_id: result.client.id,
        user_id: approver.userId,
        redirect_uri: result.redirectUri,
        scopes: result.scopes,
        code_challenge: request.code_challenge!,
        created_at: now,
        expires_at: now + deps.options.codeTtlMs,
        used_at: null,
        grant_id: null,
      });
      return { redirectTo: redirect(result.redirectUri, { code, state: request.state }, issuer) };
    },
  };
}

export type Authorization = ReturnType<typeof createAuthorization>;
