import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { type DbHandle, openDatabase } from '../../src/adapters/db/connect.ts';
import { type Container, buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { fastHasher } from '../harness/app.ts';
import { postgresAvailable } from '../harness/db.ts';
import { type Receiver, fireEvents, startReceiver, waitFor, webhookEnv } from './harness.ts';
import { senderProcesses, startSender } from './sender-process.ts';

describe.skipIf(!postgresAvailable())(
  'a sender killed between commit and send (PostgreSQL, real processes)',
  () => {
    let databaseUrl: string;
    let db: DbHandle;
    let container: Container;
    let receiver: Receiver;
    let dropDatabase: () => Promise<void>;

    beforeAll(async () => {
      const { default: pg } = await import('pg');
      const adminUrl = inject('postgresAdminUrl')!;
      const name = `${inject('postgresTemplate')}_crash_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      dropDatabase = async () => {
        const again = new pg.Client({ connectionString: adminUrl });
        await again.connect();
        await again.query(`drop database if exists ${name} with (force)`);
        await again.end();
      };
      db = await openDatabase({ databaseUrl, poolSize: 3 });
      container = await buildContainer(loadConfig({ ...webhookEnv, LOG_LEVEL: 'silent' }), {
        db,
        skipMigrations: true,
        hasher: fastHasher,
      });
      receiver = await startReceiver();
    });
    afterAll(async () => {
      for (const child of senderProcesses) child.kill('SIGKILL');
      await receiver?.close();
      await container?.close();
      await db?.close();
      await dropDatabase?.();
    });

    it('delivers after a restart, exactly once and in order', async () => {
      const { user } = await container.accounts.createUser({
        email: 'crash@example.com',
        role: 'member',
        password: 'x'.repeat(12),
      });
      const hook = await container.webhooks.service.create(user.id, {
        url: receiver.url,
        events: ['alert.triggered'],
      });
      const fired = await fireEvents(container, user.id, [
        { ruleId: 'alr_crash' },
        { ruleId: 'alr_crash' },
        { ruleId: 'alr_crash' },
      ]);
      const env = { ...webhookEnv, DATABASE_URL: databaseUrl, TEST_LEASE_MS: '1000' };

      const first = startSender('pause-before-send', env);
      const claimed = (await first.line('CLAIMED')).split(' ')[1];
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      expect(receiver.received).toHaveLength(0);
      // The claim was committed: one attempt counted, leased, nothing recorded as sent.
      const row = await db.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', claimed!)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1, event_id: fired[0]!.id });

      const second = startSender('run', env);
      await second.line('READY');
      await waitFor(
        'all three delivered',
        async () => {
          const rows = await db.db
            .selectFrom('webhook_deliveries')
            .select('status')
            .where('endpoint_id', '=', hook.id)
            .execute();
          return rows.length === 3 && rows.every((r) => r.status === 'delivered');
        },
        30_000,
      );
      second.child.kill('SIGTERM');
      await second.exited;

      const ids = receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
      expect(ids).toEqual(fired.map((e) => e.id));
      expect(receiver.received[0]!.headers['webhook-id']).toBe(claimed);
      const attempts = await db.db
        .selectFrom('webhook_attempts')
        .select(['delivery_id', 'attempt', 'outcome'])
        .where('delivery_id', '=', claimed!)
        .execute();
      // The killed attempt was never sent, so the log holds only the one that was: attempt 2.
      expect(attempts).toEqual([{ delivery_id: claimed, attempt: 2, outcome: 'delivered' }]);
    }, 120_000);
  },
);
