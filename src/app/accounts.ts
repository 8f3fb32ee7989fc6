import { tablesOf, type DbHandle } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import { secretBoxFor } from './webhooks.ts';
import {
  type AccountsService,
  type AccountsTopics,
  type CredentialsChanged,
  type PasswordHasher,
  createArgon2idHasher,
  createAccountsService,
  createKyselyAccountsRepository,
  createKyselyTwoFactorRepository,
} from '../modules/accounts/index.ts';
import { type Bus, topics } from '../shared/bus.ts';
import type { Clock } from '../shared/clock.ts';
import type { DebugLog } from '../shared/log-and-ignore.ts';
import type { Logger } from '../observability/logger.ts';
import { ssoPolicyOf } from './sso.ts';

/**
 * The accounts service as every process builds it (servers and the operator CLI): plans from the config,
 * and announcements of revocations and role/plan changes on the bus's one "cached credentials are stale"
 * topic. `announce` decides when a message goes out (the CLI waits for Redis after the change is stored).
 */
export async function buildAccounts(
  config: Config,
  deps: {
    db: DbHandle;
    clock: Clock;
    hasher?: PasswordHasher;
    announce: (payload: CredentialsChanged) => void;
    log?: DebugLog;
  },
): Promise<AccountsService> {
  const sealer = secretBoxFor(config);
  return createAccountsService({
    repo: createKyselyAccountsRepository(tablesOf(deps.db.db)),
    hasher: deps.hasher ?? (await createArgon2idHasher()),
    clock: deps.clock,
    plans: {
      standard: {
        rateLimit: config.standardRateLimit,
        wsConnections: config.wsConnectionsStandard,
        tokens: config.tokensStandard,
        sessions: config.sessionsStandard,
      },
      pro: {
        rateLimit: config.proRateLimit,
        wsConnections: config.wsConnectionsPro,
        tokens: config.tokensPro,
        sessions: config.sessionsPro,
      },
    },
    sessionTtlMs: config.sessionTtlHours * 3_600_000,
    twoFactor: {
      repo: createKyselyTwoFactorRepository(tablesOf(deps.db.db)),
      // TOTP secrets are sealed with the same key as webhook signing secrets (MERIDIAN_SECRETS_KEY).
      sealer: sealer.box,
      sealerMissing:
        sealer.missing &&
        'two-factor secrets are stored encrypted and this server has no key: set MERIDIAN_SECRETS_KEY (32+ characters, the same on every replica)',
      required: config.requireTwoFactor,
    },
    sso: ssoPolicyOf(config),
    announceRevocation: (hash) => deps.announce({ hash }),
    announceUserChange: (userId) => deps.announce({ userId }),
    announceOrgChange: (orgId) => deps.announce({ orgId }),
    log: deps.log,
  });
}

/**
 * Publishes on the bus, fire and forget (pub/sub is at-most-once; the database is the truth). A message the
 * bus could not carry is not silent: until their 5-second cache entry lapses, other replicas still accept
 * the old credentials (docs/failures.md, "Redis outage"), and the error log says so.
 */
export const announceOn =
  (bus: Bus<AccountsTopics>, log?: Pick<Logger, 'error'>) =>
  (payload: CredentialsChanged): void => {
    bus.publish(topics.tokenRevoked, payload).catch((error: unknown) => {
      log?.error(
        { error: error instanceof Error ? error.message : String(error) },
        'hash' in payload
          ? 'token revocation not broadcast: other replicas accept the token until their cache entry lapses (≤ 5 s)'
          : 'role or plan change not broadcast: other replicas keep the old one until their cache entry lapses (≤ 5 s)',
      );
    });
  };
