import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type { Pool, PoolClient } from 'pg';
import { AppError } from '../../shared/errors.ts';

/** Seconds a client is told to wait before retrying when storage is unreachable. */
const storageRetryAfterSeconds = 2;

// Connection-class SQLSTATEs: 08 (connection exception), 57P01..03 (admin shutdown, crash shutdown, cannot
// connect now), 57014 (query canceled: our statement_timeout), 53300 (too many connections).
const unavailableStates = /^(08...|57P0[123]|57014|53300)$/;
const unavailableMessages =
  /connection terminated|timeout exceeded when trying to connect|query read timeout|not queryable|connection refused|econnrefused|econnreset|etimedout|epipe|ehostunreach|socket hang up|client was closed|cannot use a pool after calling end/i;

/** Whether a driver error means "storage cannot be reached / did not answer in time" (not a bad query). */
export function isStorageUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (unavailableStates.test(code) || /^E[A-Z]+$/.test(code))) return true;
  return unavailableMessages.test(error.message);
}

/** The problem every caller gets when storage is unreachable: 503 with Retry-After, never a 500 or a hang. */
export function storageUnavailable(cause: unknown): AppError {
  const error = new AppError(
    'storage_unavailable',
    'the database is unreachable or did not answer in time; retry shortly',
    { headers: { 'retry-after': String(storageRetryAfterSeconds) } },
  );
  (error as { cause?: unknown }).cause = cause;
  return error;
}

/** The client gave up on a statement the server may still be running (the backend has not answered). */
export const isClientDeadline = (error: unknown) =>
  error instanceof Error && /query read timeout/i.test(error.message);

/** The server cancelled the statement itself (statement_timeout, a cancel request): the session is fine. */
const isServerCancel = (error: unknown) => (error as { code?: unknown } | null)?.code === '57014';

export interface ResilientPoolOptions {
  /** Asks the server to cancel what a backend is running (see cancel-request.ts). */
  cancel(client: PoolClient): Promise<void>;
  /** Longest a connection is held after its statement passed the client deadline (then dropped). */
  quarantineMs: number;
  /**
   * The client deadline of a statement (the pool's `query_timeout`) and the longest wait for a connection.
   * A wait plus the first statement on that connection get the larger of the two in all, so a request never
   * waits for a free connection and then a full statement deadline on top (a frozen database: 1 s + 1.5 s);
   * an operator who lets bursts wait long for a connection (a large `connectMs`) keeps full statements.
   */
  statementDeadlineMs?: number;
  connectMs?: number;
  /** Clock of the connection waits (tests). */
  now?: () => number;
}

/** The shortest client deadline a first statement is given, however long its connection took. */
const minimumFirstDeadlineMs = 100;

/** The client deadline of the first statement after waiting `waitedMs`; undefined: the pool's own. */
export function firstStatementDeadline(
  options: Pick<ResilientPoolOptions, 'statementDeadlineMs' | 'connectMs'>,
  waitedMs: number,
): number | undefined {
  const statement = options.statementDeadlineMs;
  if (!statement || !(waitedMs > 0)) return undefined;
  const budget = Math.max(statement, options.connectMs ?? 0);
  const left = Math.max(minimumFirstDeadlineMs, budget - waitedMs);
  return left < statement ? left : undefined;
}

/**
 * The pg pool as Kysely sees it, made safe against a failing database:
 * - every client gets a permanent 'error' listener when it is created, so a connection that dies while
 *   checked out (pg-pool only listens on idle clients) never becomes an unhandled 'error' event;
 * - a client whose connection failed (reset, terminated backend) is destroyed on release instead of going
 *   back to the pool, where it would still be dead;
 * - a client whose statement passed the client deadline is not dropped, since its backend may live on
 *   (stopped, or stuck on a lock) and dropping it only to open another would pile up backends until the
 *   cluster refuses everyone: the statement is cancelled (cancel request), and the connection stays checked
 *   out — still counted against the pool's size — until the server answers (then it is rolled back and
 *   returned to the pool) or `quarantineMs` passes (then it is dropped). A statement the server cancelled
 *   itself (statement_timeout) leaves a healthy connection, returned as usual;
 * - connection-class failures reach callers as `storage_unavailable` (503 + Retry-After).
 */
export function resilientPool(
  pool: Pool,
  onClientError: (error: Error) => void,
  options: ResilientPoolOptions,
): PostgresPool & { quarantined(): number } {
  pool.on('connect', (client) => {
    client.on('error', onClientError);
  });
  pool.on('error', onClientError);
  const held = new Map<PoolClient, () => void>();

  function quarantine(client: PoolClient) {
    let released = false;
    const release = (destroy: boolean) => {
      if (released) return;
      released = true;
      held.delete(client);
      client.release(destroy || undefined);
    };
    held.set(client, () => release(true));
    void (async () => {
      await options.cancel(client).catch(() => {});
      try {
        // Queued behind the cancelled statement: runs once the backend answers it, and ends any transaction.
        await client.query({ text: 'rollback', query_timeout: options.quarantineMs } as never);
        release(false);
      } catch {
        release(true);
      }
    })();
  }

  return {
    async connect(): Promise<PostgresPoolClient> {
      const now = options.now ?? Date.now;
      const askedAt = now();
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw isStorageUnavailable(error) ? storageUnavailable(error) : error;
      }
      let firstDeadlineMs = firstStatementDeadline(options, now() - askedAt);
      let broken = false;
      let stuck = false;
      return {
        query: (async (sql: unknown, parameters: unknown) => {
          // Kysely's rollback after a timed-out statement: the session is busy until the server answers.
          if (stuck) throw storageUnavailable(new Error('Query read timeout'));
          const deadlineMs = firstDeadlineMs;
          firstDeadlineMs = undefined;
          try {
            return await (deadlineMs === undefined || typeof sql !== 'string'
              ? client.query(sql as string, parameters as unknown[])
              : client.query({
                  text: sql,
                  values: parameters as unknown[],
                  query_timeout: deadlineMs,
                } as never));
          } catch (error) {
            if (isServerCancel(error)) throw storageUnavailable(error);
            if (!isStorageUnavailable(error)) throw error;
            if (isClientDeadline(error)) stuck = true;
            else broken = true;
            throw storageUnavailable(error);
          }
        }) as unknown as PostgresPoolClient['query'],
        release: () => {
          if (stuck && !broken) quarantine(client);
          else client.release(broken || undefined);
        },
      };
    },
    end: async () => {
      for (const drop of [...held.values()]) drop();
      await pool.end();
    },
    quarantined: () => held.size,
  };
}
