import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import {
  type AuditService,
  createAuditService,
  createKyselyAuditRepository,
} from '../modules/audit/index.ts';
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../shared/clock.ts';

/** The audit log over the process's database (servers and the operator CLI alike). */
export function buildAudit(deps: {
  db: DbHandle;
  clock: Clock;
  logger: Pick<Logger, 'error'>;
}): AuditService {
  return createAuditService({
    repo: createKyselyAuditRepository(tablesOf(deps.db.db)),
    clock: deps.clock,
    log: deps.logger,
  });
}
