import { describe, expect, it } from 'vitest';
import {
  firstStatementDeadline,
  isStorageUnavailable,
  resilientPool,
  storageUnavailable,
} from './postgres-pool.ts';

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

describe('a connection whose statement passed the client deadline', () => {
  function fakePool(answer: (text: string) => Promise<unknown>) {
    const released: Array<boolean | undefined> = [];
    const queries: string[] = [];
    const client = {
      query: (sql: string | { text: string }) => {
        const text = typeof sql === 'string' ? sql : sql.text;
        queries.push(text);
        return answer(text);
      },
      release: (destroy?: boolean) => released.push(destroy),
      on() {},
    };
    const pool = { connect: async () => client, on() {}, end: async () => {} };
    return { pool, released, queries };
  }

  it('is cancelled and held (not released) until the server answers, then returned to the pool', async () => {
    let answerRollback: () => void = () => {};
    const f = fakePool((text) =>
      text === 'rollback'
        ? new Promise((done) => {
            answerRollback = () => done({ rows: [] });
          })
        : Promise.reject(new Error('Query read timeout')),
    );
    const cancelled: unknown[] = [];
    const wrapped = resilientPool(f.pool as never, () => {}, {
      quarantineMs: 60_000,
      cancel: async (client) => {
        cancelled.push(client);
      },
    });
    const conn = await wrapped.connect();
    await expect(conn.query('select pg_sleep(60)' as never, [])).rejects.toThrow(
      /unreachable|did not answer/,
    );
    await expect(conn.query('rollback' as never, [])).rejects.toThrow();
    conn.release();
    await new Promise((r) => setTimeout(r, 10));
    expect(cancelled).toHaveLength(1);
    expect(f.released).toEqual([]); // still held: its backend may be running
    expect(wrapped.quarantined()).toBe(1);
    answerRollback();
    await new Promise((r) => setTimeout(r, 10));
    expect(f.released).toEqual([undefined]); // back to the pool, healthy
    expect(wrapped.quarantined()).toBe(0);
  });

  it('a statement the server cancelled (statement_timeout) leaves a healthy connection', async () => {
    const f = fakePool(() =>
      Promise.reject(pgError('canceling statement due to statement timeout', '57014')),
    );
    const wrapped = resilientPool(f.pool as never, () => {}, {
      quarantineMs: 60_000,
      cancel: async () => {},
    });
    const conn = await wrapped.connect();
    await expect(conn.query('select 1' as never, [])).rejects.toThrow();
    conn.release();
    expect(f.released).toEqual([undefined]);
  });

  it("the wait for a connection counts against the first statement's client deadline", async () => {
    const seen: Array<string | { text: string; query_timeout?: number }> = [];
    const client = {
      query: async (sql: string | { text: string; query_timeout?: number }) => {
        seen.push(sql);
        return { rows: [] };
      },
      release() {},
      on() {},
    };
    let clock = 0;
    let connectTakesMs = 0;
    const pool = {
      connect: async () => {
        clock += connectTakesMs;
        return client;
      },
      on() {},
      end: async () => {},
    };
    const wrapped = resilientPool(pool as never, () => {}, {
      quarantineMs: 60_000,
      cancel: async () => {},
      statementDeadlineMs: 1_500,
      connectMs: 1_000,
      now: () => clock,
    });
    connectTakesMs = 900;
    const waited = await wrapped.connect();
    await waited.query('select 1' as never, [7] as never);
    await waited.query('select 2' as never, []);
    waited.release();
    expect(seen[0]).toEqual({ text: 'select 1', values: [7], query_timeout: 600 });
    expect(seen[1]).toBe('select 2'); // later statements of the checkout: the pool's own deadline

    connectTakesMs = 5_000; // waited past the whole deadline: the statement still gets a moment
    const late = await wrapped.connect();
    await late.query('select 3' as never, []);
    expect(seen[2]).toMatchObject({ query_timeout: 100 });

    connectTakesMs = 0; // a free connection at once: the pool's deadline, untouched
    const free = await wrapped.connect();
    await free.query('select 4' as never, []);
    expect(seen[3]).toBe('select 4');
  });

  it('a wait plus the first statement get the larger of the two bounds, whichever is larger', () => {
    const defaults = { statementDeadlineMs: 1_500, connectMs: 1_000 };
    expect(firstStatementDeadline(defaults, 0)).toBeUndefined();
    expect(firstStatementDeadline(defaults, 1)).toBe(1_499);
    expect(firstStatementDeadline(defaults, 1_000)).toBe(500);
    expect(firstStatementDeadline(defaults, 3_000)).toBe(100); // a late timer: still a moment to answer
    // Bursts allowed to wait 2 minutes for a connection keep full statements until the 2 minutes are nearly up.
    const patient = { statementDeadlineMs: 1_500, connectMs: 120_000 };
    expect(firstStatementDeadline(patient, 10_000)).toBeUndefined();
    expect(firstStatementDeadline(patient, 119_000)).toBe(1_000);
    expect(firstStatementDeadline({ connectMs: 1_000 }, 900)).toBeUndefined();
  });
});
