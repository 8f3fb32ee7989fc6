import { buildAccounts } from './accounts.ts';
import { redisBus } from '../adapters/bus/redis.ts';
import { openDatabase } from '../adapters/db/connect.ts';
import { migrateToLatest } from '../adapters/db/migrate.ts';
import { connectRedis, waitForRedis } from '../adapters/redis.ts';
import type { Config } from '../config/env.ts';
import type { AccountsService, PasswordHasher } from '../modules/accounts/index.ts';
import type { OAuthService } from '../modules/oauth/index.ts';
import { buildOAuth } from './oauth.ts';
import { createLogger } from '../observability/logger.ts';
import { topics } from '../shared/bus.ts';
import { type Clock, systemClock } from '../shared/clock.ts';
import { logAndIgnore } from '../shared/log-and-ignore.ts';
import { type Topics, topicDecoders } from './bus-topics.ts';

/** How long the CLI waits, after storing a change, for Redis to carry its announcement. */
const announceWaitMs = 3_000;

export interface OperatorContext {
  accounts: AccountsService;
  oauth: OAuthService;
  clock: Clock;
  /** Waits for pending announcements (at most `announceWaitMs` while Redis is down), then closes. */
  close(): Promise<void>;
}

/**
 * What the operator CLI's account commands need — storage and the accounts service, nothing else — so a
 * security change (revoke, role, plan) is stored as soon as the database answers. Redis is not waited for
 * first: the change is stored, then announced on the bus once Redis is ready (near-instant on every
 * replica), or, while Redis is down, left to the replicas' token-cache expiry (≤ 5 s after the change).
 */
export async function buildOperatorContext(
  config: Config,
  options: { hasher?: PasswordHasher; clock?: Clock } = {},
): Promise<OperatorContext> {
  const clock = options.clock ?? systemClock;
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeouts: {
      connectMs: config.dbConnectTimeoutMs,
      statementMs: config.dbStatementTimeoutMs,
      idleInTransactionMs: config.dbIdleInTransactionTimeoutMs,
    },
  });
  await migrateToLatest(db.db);
  const redis = config.redisUrl ? connectRedis(config.redisUrl, 'cli') : undefined;
  // Publish only: nothing here subscribes, so the one connection serves as both ends.
  const bus = redis ? redisBus<Topics>(redis, redis, { decoders: topicDecoders }) : undefined;
  // Standard output carries the command's answer; a warning goes to standard error.
  const log = createLogger(config.logLevel, process.stderr);
  const notAnnounced =
    'change stored but not announced on the bus: other replicas keep cached credentials until their cache entry lapses (≤ 5 s)';
  const pending = new Set<Promise<void>>();
  const accounts = await buildAccounts(config, {
    db,
    clock,
    hasher: options.hasher,
    log,
    announce: (payload) => {
      if (!redis || !bus) return;
      const sent = waitForRedis(redis, announceWaitMs)
        .then((ready) => {
          if (ready) return bus.publish(topics.tokenRevoked, payload);
          log.warn({ waitedMs: announceWaitMs }, `Redis not reachable: ${notAnnounced}`);
        })
        .catch(logAndIgnore(log, notAnnounced));
      pending.add(sent);
      void sent.finally(() => pending.delete(sent));
    },
  });
  return {
    accounts,
    oauth: buildOAuth(config, { db, clock, accounts }),
    clock,
    async close() {
      await Promise.all(pending);
      redis?.disconnect();
      await db.close();
    },
  };
}
