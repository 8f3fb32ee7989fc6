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

/**
 * The pg pool as Kysely sees it, made safe against a failing database:
 * - every client gets a permanent 'error' listener when it is created, so a connection that dies while
 *   checked out (pg-pool only listens on idle clients) never becomes an unhandled 'error' event;
 * - a client whose query failed for a connection reason (reset, terminated backend, read timeout) is
 *   destroyed on release instead of going back to the pool, where it would still be busy or dead;
 * - connection-class failures reach callers as `storage_unavailable` (503 + Retry-After).
 */
export function resilientPool(pool: Pool, onClientError: (error: Error) => void): PostgresPool {
  pool.on('connect', (client) => {
    client.on('error', onClientError);
  });
  pool.on('error', onClientError);
  return {
    async connect(): Promise<PostgresPoolClient> {
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw isStorageUnavailable(error) ? storageUnavailable(error) : error;
      }
      let broken = false;
      return {
        query: (async (sql: unknown, parameters: unknown) => {
          try {
            return await client.query(sql as string, parameters as unknown[]);
          } catch (error) {
            if (!isStorageUnavailable(error)) throw error;
            broken = true;
            throw storageUnavailable(error);
          }
        }) as unknown as PostgresPoolClient['query'],
        release: () => client.release(broken || undefined),
      };
    },
    end: () => pool.end(),
  };
}
