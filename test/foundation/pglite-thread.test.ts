import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from '../../src/adapters/db/connect.ts';
import { cloneableParameter, startPgliteThread } from '../../src/adapters/db/pglite-thread.ts';
import { pgliteSnapshot } from '../harness/db.ts';

/**
 * Embedded PGlite on a thread of its own (src/adapters/db/pglite-thread.ts): the same answers as PGlite on
 * the caller's thread, errors with their PostgreSQL fields, one session shared in order, and — the reason it
 * exists — a long query that leaves the caller's event loop free. The repository contract suites run on it
 * too (`repositoryKinds()` in test/harness/db.ts). Every database here starts from the migrated snapshot
 * (`pgliteSnapshot()`), not from initdb: seconds of CPU less per database.
 */
describe('PGlite on a worker thread', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openDatabase({ loadDataDir: pgliteSnapshot(), thread: true });
    await sql`create table items (id int primary key, n int8, at timestamptz, doc jsonb, raw bytea, price numeric)`.execute(
      handle.db,
    );
  });
  afterAll(() => handle.close());

  it('answers with the same values as PGlite in-process: int8 as numbers, dates, JSON, bytes, exact decimals', async () => {
    const inProcess = await openDatabase({ loadDataDir: pgliteSnapshot() });
    try {
      const query = sql`select 1700000000000::int8 as n, '2026-01-02T03:04:05Z'::timestamptz as at,
        '{"a":[1,"x",null]}'::jsonb as doc, '\\x00ff'::bytea as raw, 12.345678901234567890::numeric as price`;
      const [threaded] = (await query.execute(handle.db)).rows;
      const [local] = (await query.execute(inProcess.db)).rows;
      expect(threaded).toEqual(local);
      expect(threaded).toEqual({
        n: 1_700_000_000_000,
        at: new Date('2026-01-02T03:04:05Z'),
        doc: { a: [1, 'x', null] },
        raw: new Uint8Array([0, 255]),
        price: '12.345678901234567890',
      });
    } finally {
      await inProcess.close();
    }
  });

  it('passes parameters of every kind and reports the rows a write touched', async () => {
    const at = new Date('2026-03-04T05:06:07Z');
    const inserted = await handle.db
      .insertInto('items' as never)
      .values({
        id: 1,
        n: 5,
        at,
        doc: JSON.stringify({ k: 'v' }),
        raw: Buffer.from([7, 8]),
        price: '1.10',
      } as never)
      .executeTakeFirst();
    expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
    const row = await sql<{ at: Date; doc: unknown; raw: Uint8Array; price: string }>`
      select at, doc, raw, price from items where id = ${1}`.execute(handle.db);
    expect(row.rows[0]).toEqual({ at, doc: { k: 'v' }, raw: new Uint8Array([7, 8]), price: '1.10' });
    const updated = await sql`update items set n = n + 1 where id >= ${0}`.execute(handle.db);
    expect(updated.numAffectedRows).toBe(1n);
  });

  it('takes class instances as parameters as PGlite in-process does: a Decimal as its digits, nested ones in JSON', async () => {
    // Structured clone refuses class instances; the portfolio stores exact decimals (decimal.js) this way.
    const inProcess = await openDatabase({ loadDataDir: pgliteSnapshot() });
    try {
      const query = (db: DbHandle) =>
        sql<{
          v: string;
          doc: unknown;
          list: string[];
        }>`select ${new Decimal('0.000000000000000001')}::numeric as v,
          ${JSON.stringify({ amount: new Decimal('2.50') })}::jsonb as doc,
          ${[new Decimal('1.5'), 'x']}::text[] as list`.execute(db.db);
      const [threaded] = (await query(handle)).rows;
      const [local] = (await query(inProcess)).rows;
      expect(threaded).toEqual(local);
      expect(threaded).toEqual({ v: '0.000000000000000001', doc: { amount: '2.5' }, list: ['1.5', 'x'] });
      const direct = await sql<{
        doc: unknown;
      }>`select ${{ amount: new Decimal('7.25'), at: 1 }}::jsonb as doc`.execute(handle.db);
      expect(direct.rows[0]!.doc).toEqual({ amount: '7.25', at: 1 });
    } finally {
      await inProcess.close();
    }
  });

  it('sends an array of primitives (a batch column) as it is, and converts only arrays holding instances', () => {
    const column = [1, 2.5, null, 'x', true];
    expect(cloneableParameter(column)).toBe(column);
    expect(cloneableParameter([new Decimal('1.5'), 'x', [new Decimal('2')]])).toEqual(['1.5', 'x', ['2']]);
  });

  it('raises PostgreSQL errors with their SQLSTATE and constraint, and the session stays usable', async () => {
    const duplicate = sql`insert into items (id) values (1)`.execute(handle.db);
    await expect(duplicate).rejects.toMatchObject({
      code: '23505',
      constraint: 'items_pkey',
      message: expect.stringContaining('duplicate key'),
    });
    await expect(sql`select nope from items`.execute(handle.db)).rejects.toMatchObject({ code: '42703' });
    expect((await sql<{ c: number }>`select count(*)::int as c from items`.execute(handle.db)).rows).toEqual([
      { c: 1 },
    ]);
  });

  it('runs a transaction alone on the one session: a query asked meanwhile waits and sees only committed rows', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = handle.db.transaction().execute(async (t) => {
      await sql`insert into items (id) values (2)`.execute(t);
      await held;
      throw new Error('rolled back on purpose');
    });
    // Asked while the transaction is open: it must not run inside it (it would see row 2 and be rolled back).
    const meanwhile = sql<{ ids: number[] }>`select array_agg(id order by id) as ids from items`.execute(
      handle.db,
    );
    await new Promise((r) => setTimeout(r, 50));
    release();
    await expect(tx).rejects.toThrow('rolled back on purpose');
    expect((await meanwhile).rows[0]!.ids).toEqual([1]);
    await handle.db.transaction().execute(async (t) => {
      await sql`insert into items (id) values (3)`.execute(t);
    });
    expect(
      (await sql<{ ids: number[] }>`select array_agg(id order by id) as ids from items`.execute(handle.db))
        .rows[0]!.ids,
    ).toEqual([1, 3]);
  });

  it('leaves the event loop free during a long query, where PGlite in-process holds it for the whole query', async () => {
    const heavy = sql`select sum(x) from generate_series(1, 1500000) x`;
    const ticksDuring = async (db: DbHandle) => {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 2);
      const started = performance.now();
      await heavy.execute(db.db);
      const ms = performance.now() - started;
      clearInterval(timer);
      return { ticks, ms };
    };
    const inProcess = await openDatabase({ loadDataDir: pgliteSnapshot() });
    try {
      const blocked = await ticksDuring(inProcess);
      const free = await ticksDuring(handle);
      // In-process, the timer cannot fire while WebAssembly runs: at most the tick before the query.
      expect(blocked.ticks).toBeLessThanOrEqual(1);
      expect(blocked.ms).toBeGreaterThan(50);
      // On the thread the timer keeps firing: far more than one tick for a query this long.
      expect(free.ms).toBeGreaterThan(50);
      expect(free.ticks).toBeGreaterThan(5);
    } finally {
      await inProcess.close();
    }
  });
});

describe('PGlite on a worker thread that has ended', () => {
  it('fails every query at once with a clear error instead of leaving it waiting', async () => {
    const thread = await startPgliteThread({ loadDataDir: pgliteSnapshot() });
    expect(await thread.query('select 41 + 1 as n', [])).toMatchObject({ rows: [{ n: 42 }] });
    await thread.close();
    await expect(thread.query('select 1', [])).rejects.toThrow(/the storage thread ended/);
    // Closing again is harmless.
    await thread.close();
  });
});
