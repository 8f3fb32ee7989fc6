import { type QueryExecutorProvider, sql } from 'kysely';
import { type LeaderTerm, StaleLeaderError, refuseLostTerm } from '../../shared/leadership.ts';

/**
 * Fencing for a leader's write: run inside the write's transaction. It key-share-locks the job's lease row and
 * checks that the term is still the current one and its lease has not expired (database clock). A standby's
 * takeover locks that row for update first (adapters/leadership/postgres.ts, `claim`), so it waits for this
 * transaction: a write of term N either commits before term N+1 exists or is refused. The leader's own renewal
 * changes only `expires_at` (a no-key update), which a key-share lock does not block: a long fenced write never
 * holds up the renewal of the lease it is fenced by. Term 0 (embedded, one process) has nothing to fence.
 */
export async function assertLeaderTerm(
  trx: QueryExecutorProvider,
  term: LeaderTerm | undefined,
): Promise<void> {
  refuseLostTerm(term);
  if (!term || term.term === 0) return;
  const result = await sql<{ ok: boolean }>`
    select (term = ${term.term} and expires_at > (extract(epoch from clock_timestamp()) * 1000)::bigint) as ok
    from leader_leases where job = ${term.job} for key share`.execute(trx);
  if (!result.rows[0]?.ok) throw new StaleLeaderError(term.job, term.term);
}
