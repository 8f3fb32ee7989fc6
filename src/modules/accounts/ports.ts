/** Who the OpenID Connect provider says signed in, from a validated ID token (and its userinfo). */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
}

/** The first leg of a sign-in: where to send the browser, and what the callback must match. */
export interface SsoChallenge {
  authorizationUrl: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Whether the provider can be used now (its discovery document was read), and if not, why. */
export type SsoAvailability = { available: true } | { available: false; reason: string };

/**
 * The OpenID Connect provider, as the sign-in routes use it (adapters/oidc fills it with openid-client).
 * `finish` throws `SsoRefusal` ('denied', 'failed' or 'unavailable') when the answer cannot be trusted.
 */
export interface SsoProvider {
  /** The name on the console's button. */
  readonly name: string;
  availability(): SsoAvailability;
  begin(redirectUri: string): Promise<SsoChallenge>;
  finish(
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string },
  ): Promise<ExternalIdentity>;
}
