import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { waitFor } from '../harness/wait.ts';
import { dbKinds, postgresAvailable } from '../harness/db.ts';

const rows = (n: number, tag: string) => ({
  rows: Array.from({ length: n }, (_, i) => ({ asset: 'BTC', quantity: `0.${i + 1}`, note: tag })),
});

describe.each(dbKinds())('Idempotency-Key on POST /api/portfolio/import (%s)', (kind) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({
      db: kind,
      env: { MERIDIAN_RATE_LIMIT_STANDARD: '100000' },
      // 1,000 requests at once against a pool of 5: by design a request that waits longer than the connect
      // timeout for a pooled connection is shed with 503 (docs/failures.md). This suite is about idempotency,
      // so every request is let through to the key logic, however loaded the machine.
      dbTimeouts: { connectMs: 120_000 },
    });
    user = await t.user('member');
  });
  afterAll(async () => t?.close());

  const post = (key: string, payload: unknown, who = user) =>
    t.app.inject({
      method: 'POST',
      url: '/api/portfolio/import',
      headers: { ...who.auth, 'content-type': 'application/json', 'idempotency-key': key },
      payload: JSON.stringify(payload),
    });
  const stored = async (who = user) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/portfolio/imports?limit=200',
      headers: who.auth,
    });
    return res.json().data as Array<{ id: string; idempotencyKey: string | null }>;
  };

  it('1,000 concurrent requests with the same key and body store exactly one import', async () => {
    const body = rows(5, 'concurrent');
    const answers = await Promise.all(Array.from({ length: 1000 }, () => post('key-concurrent', body)));
    const created = answers.filter((a) => a.statusCode === 201);
    const busy = answers.filter((a) => a.statusCode === 409);
    expect(created.length + busy.length).toBe(1000);
    expect(created.length).toBeGreaterThanOrEqual(1);
    // Every 201 is the same answer, byte for byte (the first one, replayed).
    expect(new Set(created.map((a) => a.body)).size).toBe(1);
    expect(created.filter((a) => a.headers['idempotent-replayed'] === 'false')).toHaveLength(1);
    for (const a of busy) expect(a.json().code).toBe('idempotency_key_in_use');
    const imports = (await stored()).filter((i) => i.idempotencyKey === 'key-concurrent');
    expect(imports).toHaveLength(1);
    expect(imports[0]!.id).toBe(created[0]!.json().importId);
    // After the first finished, a retry replays it.
    const later = await post('key-concurrent', body);
    expect(later.statusCode).toBe(201);
    expect(later.body).toBe(created[0]!.body);
    expect(later.headers['idempotent-replayed']).toBe('true');
  }, 180_000); // 1,000 requests through the whole app: generous on a loaded machine, asserts nothing about time

  it('the same key with another body is refused with 422; keys are per account', async () => {
    const first = await post('key-mismatch', rows(2, 'first'));
    expect(first.statusCode).toBe(201);
    const other = await post('key-mismatch', rows(2, 'second'));
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    const dry = await t.app.inject({
      method: 'POST',
      url: '/api/portfolio/import?dryRun=true',
      headers: { ...user.auth, 'content-type': 'application/json', 'idempotency-key': 'key-mismatch' },
      payload: JSON.stringify(rows(2, 'first')),
    });
    expect(dry.statusCode).toBe(422);
    // Another account may use the same key for its own request.
    const someoneElse = await t.user('member');
    const theirs = await post('key-mismatch', rows(1, 'theirs'), someoneElse);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBe('false');
  });

  it('an invalid request does not use up its key', async () => {
    const bad = await post('key-invalid', { rows: [{ asset: 'BTC', quantity: 'many' }] });
    expect(bad.statusCode).toBe(400);
    const good = await post('key-invalid', rows(1, 'fixed'));
    expect(good.statusCode).toBe(201);
  });

  it('refuses a malformed key', async () => {
    const res = await post('x'.repeat(256), rows(1, 'k'));
    expect(res.statusCode).toBe(400);
  });
});

describe.skipIf(!postgresAvailable())('a PostgreSQL connection killed mid-import', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db: 'postgres' });
  });
  afterAll(async () => t?.close());

  it('leaves nothing half written, and the retry with the same key stores the rows exactly once', async () => {
    const user = await t.user('member');
    const { default: pg } = await import('pg');
    const { rows: current } = await (await import('kysely')).sql<{
      name: string;
    }>`select current_database() as name`.execute(t.container.db.db);
    const url = new URL(inject('postgresAdminUrl')!);
    url.pathname = `/${current[0]!.name}`;
    const locker = new pg.Client({ connectionString: url.toString() });
    const watcher = new pg.Client({ connectionString: url.toString() });
    await Promise.all([locker.connect(), watcher.connect()]);
    try {
      // Hold the import-history table so the import's transaction stops after writing its rows.
      await locker.query('begin');
      await locker.query('lock table portfolio_imports in access exclusive mode');
      const body = JSON.stringify(rows(50, 'killed'));
      const send = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/portfolio/import',
          headers: { ...user.auth, 'content-type': 'application/json', 'idempotency-key': 'key-killed' },
          payload: body,
        });
      const first = send();
      const pid = await waitFor(async () => {
        const { rows: waiting } = await watcher.query(
          `select pid from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query ilike '%portfolio_imports%'`,
        );
        return waiting[0]?.pid as number | undefined;
      }, 'the import to wait on the lock');
      // Its rows are written inside the open transaction by now.
      await watcher.query('select pg_terminate_backend($1)', [pid]);
      await locker.query('rollback');
      const killed = await first;
      // A lost database connection is the storage being unavailable: 503 with Retry-After, never a 500.
      expect(killed.statusCode).toBe(503);
      expect(killed.headers['content-type']).toContain('application/problem+json');
      expect(killed.json().code).toBe('storage_unavailable');
      expect(Number(killed.headers['retry-after'])).toBeGreaterThan(0);
      const counts = await watcher.query(
        `select (select count(*) from portfolio_rows where account_id = $1)::int as rows,
                (select count(*) from portfolio_imports where account_id = $1)::int as imports`,
        [user.id],
      );
      expect(counts.rows[0]).toEqual({ rows: 0, imports: 0 });

      const retry = await send();
      expect(retry.statusCode).toBe(201);
      expect(retry.json()).toMatchObject({ inserted: 50 });
      const replay = await send();
      expect(replay.body).toBe(retry.body);
      const after = await watcher.query(
        `select (select count(*) from portfolio_rows where account_id = $1)::int as rows,
                (select count(*) from portfolio_imports where account_id = $1)::int as imports`,
        [user.id],
      );
      expect(after.rows[0]).toEqual({ rows: 50, imports: 1 });
    } finally {
      await locker.end().catch(() => {});
      await watcher.end();
    }
  });
});
