import { openIdProvider } from '../adapters/oidc/openid-client.ts';
import type { Config } from '../config/env.ts';
import type { SsoPolicy, SsoProvider } from '../modules/accounts/index.ts';
import type { Logger } from '../observability/logger.ts';
import type { ComponentHealth } from '../shared/readiness.ts';

export interface SsoModule {
  provider: SsoProvider;
  /** For /readyz: degraded while the provider's discovery document could not be read. */
  health(): ComponentHealth;
  close(): void;
}

/** Who may sign in with single sign-on and what a new account gets, from the config (undefined: off). */
export function ssoPolicyOf(config: Config): SsoPolicy | undefined {
  if (!config.oidcIssuer) return undefined;
  return {
    allowedDomains: config.oidcAllowedDomains.map((domain) => domain.toLowerCase()),
    defaultRole: config.oidcDefaultRole,
    defaultPlan: config.oidcDefaultPlan,
  };
}

/**
 * The OpenID Connect provider when MERIDIAN_OIDC_ISSUER is set. Discovery runs once here (a few seconds at
 * most); an unreachable issuer does not stop the start: the sign-in page hides the button and says why, and
 * /readyz reports `sso` degraded until a background retry succeeds.
 */
export async function buildSso(config: Config, logger: Logger): Promise<SsoModule | undefined> {
  const { oidcIssuer, oidcClientId, oidcClientSecret } = config;
  if (!oidcIssuer || !oidcClientId || !oidcClientSecret) return undefined;
  const provider = openIdProvider({
    issuer: oidcIssuer,
    clientId: oidcClientId,
    clientSecret: oidcClientSecret,
    name: config.oidcProviderName,
    log: logger,
  });
  await provider.start();
  return {
    provider,
    health() {
      const state = provider.availability();
      return state.available ? { status: 'ok' } : { status: 'degraded', reason: state.reason };
    },
    close: () => provider.stop(),
  };
}
