import { tablesOf, type DbHandle } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import type { AccountsService } from '../modules/accounts/index.ts';
import type { AuditLog } from '../modules/audit/index.ts';
import {
  type OAuthService,
  createKyselyOAuthRepository,
  createOAuthService,
} from '../modules/oauth/index.ts';
import type { Clock } from '../shared/clock.ts';
import type { Job, LeaderTerm } from '../shared/leadership.ts';
import { periodicJob } from '../shared/periodic-job.ts';
import type { Logger } from '../observability/logger.ts';
import { sweepJob } from '../shared/sweep-job.ts';

/**
 * Spent OAuth rows are kept this long past their expiry or revocation: as long as the 30-day usage view, which
 * names an access token by its grant's client, and long enough that a replayed code or refresh token is still
 * known (and revokes its grant) well after it expired.
 */
export const OAUTH_RETENTION_MS = 35 * 86_400_000;
const OAUTH_SWEEP_MS = 3_600_000;

/** Deletes expired codes and refresh tokens and dead grants, hourly (leader only: one replica sweeps). */
export function oauthRetentionJob(oauth: Pick<OAuthService, 'pruneExpired'>, log: Logger): Job {
  let term: LeaderTerm | undefined;
  const sweep = periodicJob({
    name: 'oauth-retention',
    everyMs: OAUTH_SWEEP_MS,
    log,
    run: async () => {
      const removed = await oauth.pruneExpired(OAUTH_RETENTION_MS, term);
      if (removed.codes || removed.refreshTokens || removed.grants)
        log.info(removed, 'spent OAuth rows pruned');
    },
  });
  return sweepJob(sweep, (leaderTerm) => {
    term = leaderTerm;
  });
}

/** Authorization codes wait at most this long for their exchange (RFC 6749 §4.1.2 advises ≤ 10 minutes). */
const codeTtlMs = 60_000;

/** The OAuth authorization server as servers and the operator CLI build it, over the accounts service. */
export function buildOAuth(
  config: Config,
  deps: { db: DbHandle; clock: Clock; accounts: AccountsService; audit?: AuditLog },
): OAuthService {
  return createOAuthService({
    repo: createKyselyOAuthRepository(tablesOf(deps.db.db)),
    accounts: deps.accounts,
    clock: deps.clock,
    audit: deps.audit,
    options: {
      accessTokenTtlMs: config.oauthAccessTokenTtlSeconds * 1000,
      refreshTokenTtlMs: config.oauthRefreshTokenTtlDays * 86_400_000,
      codeTtlMs,
    },
  });
}
