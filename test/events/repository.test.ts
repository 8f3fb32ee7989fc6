import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type EventBody,
  type EventsRepository,
  type EventsTables,
  createKyselyEventsRepository,
  createMemoryEventsRepository,
  insertAccountEvents,
} from '../../src/modules/events/index.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';

const T0 = Date.UTC(2026, 10, 1);

describe.each(dbKinds())('account event log on %s', (kind) => {
  let handle: DbHandle;
  let db: ReturnType<typeof tablesOf<EventsTables>>;
  let repo: EventsRepository;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = tablesOf<EventsTables>(handle.db);
    repo = createKyselyEventsRepository(db);
  });
  afterAll(async () => handle?.close());

  it('appends in input order with increasing seq and a versioned body that names the event', async () => {
    const stored = await insertAccountEvents(
      db,
      [
        { accountId: 'acc_a', type: 'alert.triggered', data: { n: 1 } },
        { accountId: 'acc_b', type: 'onchain.flow', data: { n: 2 }, test: true },
      ],
      T0,
    );
    expect(stored.map((e) => e.accountId)).toEqual(['acc_a', 'acc_b']);
    expect(stored[1]!.seq).toBeGreaterThan(stored[0]!.seq);
    const body = JSON.parse(stored[1]!.body) as EventBody;
    expect(body).toEqual({
      id: stored[1]!.id,
      type: 'onchain.flow',
      version: 1,
      timestamp: new Date(T0).toISOString(),
      test: true,
      data: { n: 2 },
    });
    expect(stored[1]!.id).toMatch(/^evt_[0-9A-Za-z]{20}$/);
  });

  it('reads per account after a cursor, finds only its own events, prunes by age', async () => {
    const [first, , third] = await insertAccountEvents(
      db,
      [
        { accountId: 'acc_c', type: 'alert.triggered', data: { n: 1 } },
        { accountId: 'acc_d', type: 'alert.triggered', data: { n: 2 } },
        { accountId: 'acc_c', type: 'alert.triggered', data: { n: 3 } },
      ],
      T0 + 1_000,
    );
    expect((await repo.listForAccount('acc_c', first!.seq, 10)).map((e) => e.id)).toEqual([third!.id]);
    expect((await repo.listAfter(first!.seq, 10)).length).toBe(2);
    expect(await repo.findForAccount('acc_d', first!.id)).toBeUndefined();
    expect((await repo.findForAccount('acc_c', first!.id))?.body).toBe(first!.body);
    await insertAccountEvents(db, [{ accountId: 'acc_c', type: 'alert.triggered', data: {} }], T0 + 90_000);
    expect(await repo.pruneBefore(T0 + 60_000)).toBeGreaterThanOrEqual(5);
    expect((await repo.listForAccount('acc_c', 0, 10)).length).toBe(1);
  });

  it('a rolled-back transaction leaves no event behind', async () => {
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await insertAccountEvents(
          tablesOf<EventsTables>(trx),
          [{ accountId: 'acc_rollback', type: 'alert.triggered', data: {} }],
          T0,
        );
        throw new Error('cause failed');
      }),
    ).rejects.toThrow('cause failed');
    expect(await repo.listForAccount('acc_rollback', 0, 10)).toEqual([]);
  });
});

describe('memory event log twin', () => {
  it('orders, filters and prunes like the database', async () => {
    const repo = createMemoryEventsRepository();
    const a = repo.add({
      id: 'evt_a',
      accountId: 'x',
      type: 'alert.triggered',
      body: '{}',
      test: false,
      createdAt: 1,
    });
    repo.add({ id: 'evt_b', accountId: 'y', type: 'alert.triggered', body: '{}', test: false, createdAt: 5 });
    expect((await repo.listAfter(a.seq, 10)).map((e) => e.id)).toEqual(['evt_b']);
    expect(await repo.findForAccount('y', 'evt_a')).toBeUndefined();
    expect(await repo.pruneBefore(3)).toBe(1);
    expect((await repo.listAfter(0, 10)).map((e) => e.id)).toEqual(['evt_b']);
  });
});
