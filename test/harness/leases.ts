import { type Kysely, type QueryExecutorProvider, sql } from 'kysely';
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

/** Open until `close()`; while closed, `held()` is a promise that settles when `open()` is called. */
export function gate() {
  let closed: { promise: Promise<void>; open: () => void } | undefined;
  return {
    held: () => closed?.promise,
    close() {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => {
        open = resolve;
      });
      closed ??= { promise, open };
    },
    open() {
      closed?.open();
      closed = undefined;
    },
  };
}

/**
 * A Kysely whose results are held while `held()` gives a promise — a process's view of a frozen database (or of
 * a link cut after the query was sent). Give it a pool of its own: held answers keep their connections.
 */
export function blockingDb<T>(db: Kysely<T>, held: () => Promise<void> | undefined): Kysely<T> {
  return db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      await held();
      return args.result;
    },
  });
}
