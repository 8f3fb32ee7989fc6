import { type QueryExecutorProvider, sql } from 'kysely';
import type { LeaderTerm } from '../../src/shared/leadership.ts';

/** Makes `term` the current, unexpired term of `job` in `leader_leases` (as a campaign that won would). */
export async function holdLease(db: QueryExecutorProvider, job: string, term: number): Promise<void> {
  await sql`
    insert into leader_leases (job, term, holder, expires_at) values (${job}, ${term}, 'test', ${Date.now() + 600_000})
    on conflict (job) do update set term = excluded.term, holder = excluded.holder, expires_at = excluded.expires_at`.execute(
    db,
  );
}

/** A term that still believes it leads: only the database can tell it is stale. */
export const believedTerm = (job: string, term: number): LeaderTerm => ({ job, term, current: () => true });
