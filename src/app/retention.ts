import { type Kysely, sql } from 'kysely';
import type { Config } from '../config/env.ts';
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../shared/clock.ts';
import type { Job } from '../shared/leadership.ts';
import { periodicJob } from '../shared/periodic-job.ts';
import { sweepJob } from '../shared/sweep-job.ts';

const DAY = 86_400_000;
const SWEEP_MS = 3_600_000;
/** Rows per delete statement: short statements, no long lock on a busy table. */
const BATCH = 5_000;

interface Rule {
  what: string;
  /** One batch: deletes at most BATCH rows older than `cutoff` (ms), returns how many went. */
  deleteBatch(db: Kysely<unknown>, cutoff: number): Promise<number>;
  keepDays: number;
}

const deleted = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0);

/** One batch of a table's rows whose time column is before the cutoff (and that match `where`, if given). */
function olderThan(table: string, column: string, where = sql`true`) {
  return async (db: Kysely<unknown>, cutoff: number) =>
    deleted(
      await sql`delete from ${sql.table(table)} where ctid in (select ctid from ${sql.table(table)}
        where ${sql.ref(column)} < ${cutoff} and ${where} limit ${BATCH})`.execute(db),
    );
}

/**
 * The audit log refuses DELETE (a trigger, migration 0020) unless the transaction says it is the retention
 * sweep; this is the one place that does.
 */
async function pruneAuditBatch(db: Kysely<unknown>, cutoff: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('meridian.audit_retention', 'on', true)`.execute(trx);
    return olderThan('audit_log', 'at')(trx, cutoff);
  });
}

/**
 * One batch of the forecast ledger's oldest entries, up to the newest recorded before the cutoff: always a
 * prefix of the chain, so what remains still verifies from its first entry. The ledger's trigger refuses a
 * DELETE unless the transaction says it is this sweep's.
 */
async function ledgerPrefix(db: Kysely<unknown>, cutoff: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('meridian.ledger_retention', 'on', true)`.execute(trx);
    return deleted(
      await sql`delete from prediction_ledger where sequence in (select sequence from prediction_ledger
        where sequence <= (select max(sequence) from prediction_ledger where recorded_at < ${cutoff})
        order by sequence limit ${BATCH})`.execute(trx),
    );
  });
}

function rules(config: Config): Rule[] {
  const predictions = olderThan('predictions', 'generated_at');
  const gaps = olderThan('prediction_gaps', 'to_ms');
  return [
    {
      what: '1m candles',
      keepDays: config.retainCandles1mDays,
      deleteBatch: olderThan('market_candles', 'open_time', sql`interval = '1m'`),
    },
    {
      what: 'predictions',
      keepDays: config.retainPredictionsDays,
      deleteBatch: async (db, cutoff) =>
        (await predictions(db, cutoff)) + (await gaps(db, cutoff)) + (await ledgerPrefix(db, cutoff)),
    },
    ...(
      [
        ['funding', config.retainFundingDays],
        ['open_interest', config.retainOpenInterestDays],
        ['basis', config.retainBasisDays],
        ['liquidations', config.retainLiquidationsDays],
      ] as const
    ).map(([metric, keepDays]) => ({
      what: `derivatives ${metric}`,
      keepDays,
      deleteBatch: olderThan('derivatives_points', 'time', sql`metric = ${metric}`),
    })),
    {
      what: 'exchange flows',
      keepDays: config.retainFlowsDays,
      deleteBatch: olderThan('onchain_flows', 'block_time'),
    },
    { what: 'audit log', keepDays: config.auditRetentionDays, deleteBatch: pruneAuditBatch },
  ];
}

/**
 * Deletes what is older than each retention period (0 keeps forever), batch by batch; returns the rows
 * deleted per kind. Old rows are the same for every replica, so two sweeps at once would only race to
 * delete the same rows: no leadership fence is needed for correctness, the job is leader-only to avoid the waste.
 */
export async function pruneOldData(
  db: Kysely<unknown>,
  config: Config,
  now: number,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const rule of rules(config)) {
    if (rule.keepDays === 0) continue;
    const cutoff = now - rule.keepDays * DAY;
    let total = 0;
    for (;;) {
      const n = await rule.deleteBatch(db, cutoff);
      total += n;
      if (n < BATCH) break;
    }
    counts[rule.what] = total;
  }
  return counts;
}

/** The hourly retention sweep (leader-elected): MERIDIAN_RETAIN_* in docs/configuration. */
export function retentionJob(deps: {
  db: Kysely<unknown>;
  config: Config;
  clock: Clock;
  logger: Logger;
}): Job {
  const sweep = periodicJob({
    name: 'data-retention',
    everyMs: SWEEP_MS,
    log: deps.logger,
    run: async () => {
      const counts = await pruneOldData(deps.db, deps.config, deps.clock.now());
      if (Object.values(counts).some((n) => n > 0)) deps.logger.info(counts, 'retention: old rows deleted');
    },
  });
  return sweepJob(sweep);
}
