import { tablesOf, type DbHandle } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import {
  type AccountsService,
  type PasswordHasher,
  argon2idHasher,
  createAccountsService,
  kyselyAccountsRepository,
} from '../modules/accounts/index.ts';
import { type Bus, topics } from '../shared/bus.ts';
import type { Clock } from '../shared/clock.ts';

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
    announce: (payload: { hash: string } | { userId: string }) => void;
  },
): Promise<AccountsService> {
  return createAccountsService({
    repo: kyselyAccountsRepository(tablesOf(deps.db.db)),
    hasher: deps.hasher ?? (await argon2idHasher()),
    clock: deps.clock,
    plans: {
      standard: { rateLimit: config.standardRateLimit, wsConnections: config.wsConnectionsStandard },
      pro: { rateLimit: config.proRateLimit, wsConnections: config.wsConnectionsPro },
    },
    sessionTtlMs: config.sessionTtlHours * 3_600_000,
    announceRevocation: (hash) => deps.announce({ hash }),
    announceUserChange: (userId) => deps.announce({ userId }),
  });
}

/** Publishes on the bus, fire and forget (pub/sub is at-most-once; the database is the truth). */
export const announceOn =
  (bus: Bus) =>
  (payload: object): void => {
    bus.publish(topics.tokenRevoked, payload).catch(() => {});
  };
