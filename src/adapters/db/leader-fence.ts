import { type QueryExecutorProvider, sql } from 'kysely';
import { type LeaderTerm, StaleLeaderError } from '../../shared/leadership.ts';

/**
 * Fencing for a leader's write: run inside the write's transaction. It share-locks the job's lease row and
 * checks that the term is still the current one and its lease has not expired (database clock). A standby's
 * takeover updates that row, so it waits for this transaction: a write of term N either commits before term
 * N+1 exists or is refused. Term 0 (embedded, one process) has nothing to fence.
 */
export async function assertLeaderTerm(
  trx: QueryExecutorProvider,
  term: LeaderTerm | undefined,
): Promise<void> {
  if (!term || term.term === 0) return;
  if (!term.current()) throw new StaleLeaderError(term.job, term.term);
  const result = await sql<{ ok: boolean }>`
    select (term = ${term.term} and expires_at > (extract(epoch from clock_timestamp()) * 1000)::bigint) as ok
    from leader_leases where job = ${term.job} for share`.execute(trx);
  if (!result.rows[0]?.ok) throw new StaleLeaderError(term.job, term.term);
}
