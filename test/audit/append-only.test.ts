import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import { pruneOldData } from '../../src/app/retention.ts';
import { loadConfig } from '../../src/config/env.ts';
import {
  type AuditTables,
  createAuditService,
  createKyselyAuditRepository,
} from '../../src/modules/audit/index.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

describe.each(dbKinds())('the audit log is append-only on %s', (kind) => {
  let handle: DbHandle;
  let db: ReturnType<typeof tablesOf<AuditTables>>;
  const clock = manualClock(NOW - 400 * DAY);
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = tablesOf<AuditTables>(handle.db);
    const audit = createAuditService({
      repo: createKyselyAuditRepository(db),
      clock,
      log: { error: () => {} },
    });
    const entry = {
      outcome: 'success',
      actorId: 'usr_a',
      credential: 'session',
      address: '10.0.0.1',
    } as const;
    await audit.record({ ...entry, action: 'token.create', target: 'token:old' });
    clock.set(NOW - DAY);
    await audit.record({ ...entry, action: 'token.revoke', target: 'token:recent' });
  });
  afterAll(async () => handle?.close());

  const count = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(db)).rows[0]!.n);
  const refusal = /append-only/;

  it('refuses UPDATE of any column', async () => {
    await expect(sql`update audit_log set outcome = 'failure'`.execute(db)).rejects.toThrow(refusal);
    await expect(db.updateTable('audit_log').set({ actor_id: 'usr_b' }).execute()).rejects.toThrow(refusal);
    const rows = await db.selectFrom('audit_log').select(['outcome', 'actor_id']).execute();
    expect(rows.every((r) => r.outcome === 'success' && r.actor_id === 'usr_a')).toBe(true);
  });

  it('refuses DELETE and TRUNCATE outside the retention sweep', async () => {
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(refusal);
    await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(refusal);
    // A transaction is not enough: only one that marks itself as the retention sweep may delete.
    await expect(
      db
        .transaction()
        .execute(async (trx) => sql`delete from audit_log where target = 'token:old'`.execute(trx)),
    ).rejects.toThrow(refusal);
    expect(await count()).toBe(2);
  });

  it('lets the retention sweep delete only entries older than MERIDIAN_AUDIT_RETENTION_DAYS', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', MERIDIAN_AUDIT_RETENTION_DAYS: '30' });
    const counts = await pruneOldData(handle.db as Kysely<unknown>, config, NOW);
    expect(counts['audit log']).toBe(1);
    const left = await db.selectFrom('audit_log').select('target').execute();
    expect(left.map((r) => r.target)).toEqual(['token:recent']);
    // The sweep's setting lasted only for its own transaction.
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(refusal);
    expect(await count()).toBe(1);
  });
});
