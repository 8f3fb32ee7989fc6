import { describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import {
  type EventsTables,
  createKyselyEventsRepository,
  insertAccountEvents,
} from '../../src/modules/events/index.ts';
import { StaleLeaderError } from '../../src/shared/leadership.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';
import { believedTerm, holdLease } from '../harness/leases.ts';

const T0 = Date.UTC(2026, 0, 1);
const JOB = 'events-retention';

describe.each(dbKinds())('account event retention on %s', (kind) => {
  it('a prune from a stale leadership term is refused and deletes nothing; the current term prunes', async () => {
    const handle = await openTestDatabase(kind);
    try {
      const db = tablesOf<EventsTables>(handle.db);
      const events = createKyselyEventsRepository(db);
      await insertAccountEvents(db, [{ accountId: 'usr_fence', type: 'alert.triggered', data: {} }], T0);
      await holdLease(handle.db, JOB, 3);
      await expect(events.pruneBefore(T0 + 1, believedTerm(JOB, 2))).rejects.toThrow(StaleLeaderError);
      expect(await events.listForAccount('usr_fence', 0, 10)).toHaveLength(1);
      expect(await events.pruneBefore(T0 + 1, believedTerm(JOB, 3))).toBe(1);
      expect(await events.listForAccount('usr_fence', 0, 10)).toHaveLength(0);
    } finally {
      await handle.close();
    }
  });
});
