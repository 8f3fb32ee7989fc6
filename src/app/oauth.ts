import { tablesOf, type DbHandle } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import type { AccountsService } from '../modules/accounts/index.ts';
import {
  type OAuthService,
  createKyselyOAuthRepository,
  createOAuthService,
} from '../modules/oauth/index.ts';
import type { Clock } from '../shared/clock.ts';

/** Authorization codes wait at most this long for their exchange (RFC 6749 §4.1.2 advises ≤ 10 minutes). */
const codeTtlMs = 60_000;

/** The OAuth authorization server as servers and the operator CLI build it, over the accounts service. */
export function buildOAuth(
  config: Config,
  deps: { db: DbHandle; clock: Clock; accounts: AccountsService },
): OAuthService {
  return createOAuthService({
    repo: createKyselyOAuthRepository(tablesOf(deps.db.db)),
    accounts: deps.accounts,
    clock: deps.clock,
    options: {
      accessTokenTtlMs: config.oauthAccessTokenTtlSeconds * 1000,
      refreshTokenTtlMs: config.oauthRefreshTokenTtlDays * 86_400_000,
      codeTtlMs,
    },
  });
}
