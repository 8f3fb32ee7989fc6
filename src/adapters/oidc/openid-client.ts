import * as oidc from 'openid-client';
import {
  type ExternalIdentity,
  type SsoAvailability,
  type SsoProvider,
  SsoRefusal,
} from '../../modules/accounts/index.ts';
import type { WarnLog } from '../../shared/log-and-ignore.ts';

export interface OpenIdProviderOptions {
  issuer: string;
  clientId: string;
  /** Sent to the token endpoint only (HTTP Basic); never logged. */
  clientSecret: string;
  /** The button's name; default: the issuer's host name. */
  name?: string;
  /** Delay between discovery attempts while the issuer is unreachable. */
  retryMs?: number;
  log: WarnLog & { info(fields: object, message: string): void };
}

const scope = 'openid email profile';
const discoveryTimeoutS = 5;

/** `email_verified` as providers send it: a boolean, or (some) the string "true". */
const isTrue = (value: unknown) => value === true || value === 'true';

/**
 * An OpenID Connect provider over openid-client: discovery at start (retried in the background while the
 * issuer is unreachable), the authorization code flow with PKCE, state and nonce, and ID token validation
 * (signature, issuer, audience, expiry, nonce) by the library. The email comes from the ID token, or from the
 * userinfo endpoint when the provider leaves it out of the token.
 */
export function openIdProvider(options: OpenIdProviderOptions): SsoProvider & {
  /** Reads the discovery document; resolves either way (availability() tells the outcome). */
  start(): Promise<void>;
  stop(): void;
} {
  const issuerUrl = new URL(options.issuer);
  const name = options.name ?? issuerUrl.hostname;
  const retryMs = options.retryMs ?? 30_000;
  let config: oidc.Configuration | undefined;
  let unavailable = 'discovery has not run yet';
  let retryTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function discover(): Promise<void> {
    try {
      config = await oidc.discovery(
        issuerUrl,
        options.clientId,
        undefined,
        oidc.ClientSecretBasic(options.clientSecret),
        {
          timeout: discoveryTimeoutS,
          // Config allows plain http only for a loopback issuer (a provider on the same machine).
          execute: issuerUrl.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        },
      );
      options.log.info({ issuer: options.issuer }, 'single sign-on provider discovered');
    } catch (error) {
      unavailable = `the provider at ${options.issuer} could not be reached: ${messageOf(error)}; retrying every ${Math.round(retryMs / 1000)} s`;
      options.log.warn({ issuer: options.issuer, error: messageOf(error) }, 'single sign-on unavailable');
      if (!stopped) {
        retryTimer = setTimeout(() => void discover(), retryMs);
        retryTimer.unref();
      }
    }
  }

  const ready = (): oidc.Configuration => {
    if (!config) throw new SsoRefusal('unavailable', unavailable);
    return config;
  };

  return {
    name,
    start: discover,
    stop() {
      stopped = true;
      clearTimeout(retryTimer);
    },
    availability(): SsoAvailability {
      return config ? { available: true } : { available: false, reason: unavailable };
    },
    async begin(redirectUri) {
      const configuration = ready();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { authorizationUrl: url.href, state, nonce, codeVerifier };
    },
    async finish(callbackUrl, expected): Promise<ExternalIdentity> {
      const configuration = ready();
      try {
        const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: expected.codeVerifier,
          expectedState: expected.state,
          expectedNonce: expected.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new SsoRefusal('failed', 'the token response held no ID token');
        let email: unknown = claims.email;
        let verified: unknown = claims.email_verified;
        if (email === undefined) {
          const info = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
          email = info.email;
          verified = info.email_verified;
        }
        return {
          issuer: claims.iss,
          subject: claims.sub,
          email: typeof email === 'string' ? email : undefined,
          emailVerified: isTrue(verified),
        };
      } catch (error) {
        throw refusalOf(error);
      }
    },
  };
}

function refusalOf(error: unknown): SsoRefusal {
  if (error instanceof SsoRefusal) return error;
  if (error instanceof oidc.AuthorizationResponseError)
    return new SsoRefusal(
      error.error === 'access_denied' ? 'denied' : 'failed',
      `the provider answered ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`,
    );
  // fetch's own failure (connection refused, DNS, timeout) is a TypeError; the rest is a response we refuse.
  if (error instanceof TypeError && error.message === 'fetch failed')
    return new SsoRefusal('unavailable', `the provider could not be reached: ${messageOf(error.cause)}`);
  return new SsoRefusal('failed', messageOf(error));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
