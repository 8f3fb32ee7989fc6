import { type DbHandle, openDatabase } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import type { Logger } from '../observability/logger.ts';

/** Opens the configured storage: PostgreSQL (DATABASE_URL), or PGlite in the data folder. */
export function openStorage(config: Config, log: Logger): Promise<DbHandle> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    thread: config.pgliteThread,
    timeouts: {
      connectMs: config.dbConnectTimeoutMs,
      statementMs: config.dbStatementTimeoutMs,
      idleInTransactionMs: config.dbIdleInTransactionTimeoutMs,
    },
    onConnectionError: (error) => log.warn({ error: error.message }, 'database connection lost'),
  });
}
