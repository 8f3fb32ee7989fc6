import { describe, expect, it } from 'vitest';
import { isStorageUnavailable, storageUnavailable } from './postgres-pool.ts';

const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('storage failures are told apart from bad queries', () => {
  it('classifies connection loss, refusals and timeouts as unavailable', () => {
    for (const error of [
      pgError('terminating connection due to administrator command', '57P01'),
      pgError('canceling statement due to statement timeout', '57014'),
      pgError('the database system is starting up', '57P03'),
      pgError('connection failure', '08006'),
      pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      pgError('read ECONNRESET', 'ECONNRESET'),
      pgError('Connection terminated unexpectedly'),
      pgError('timeout exceeded when trying to connect'),
      pgError('Query read timeout'),
      pgError('Client has encountered a connection error and is not queryable'),
    ])
      expect(isStorageUnavailable(error), error.message).toBe(true);
  });

  it('leaves query errors alone', () => {
    for (const error of [
      pgError('duplicate key value violates unique constraint "users_email_key"', '23505'),
      pgError('syntax error at or near "selec"', '42601'),
      pgError('relation "nope" does not exist', '42P01'),
      'not an error',
    ])
      expect(isStorageUnavailable(error)).toBe(false);
  });

  it('answers 503 storage_unavailable with Retry-After', () => {
    const error = storageUnavailable(pgError('Query read timeout'));
    expect(error.status).toBe(503);
    expect(error.code).toBe('storage_unavailable');
    expect(Number(error.headers?.['retry-after'])).toBeGreaterThan(0);
  });
});
