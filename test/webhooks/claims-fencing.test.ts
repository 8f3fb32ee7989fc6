import { describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import {
  createKyselyDeliveriesRepository,
  createKyselyEndpointsRepository,
  type WebhooksTables,
} from '../../src/modules/webhooks/index.ts';
import { StaleLeaderError } from '../../src/shared/leadership.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';
import { believedTerm, holdLease } from '../harness/leases.ts';

const T0 = Date.UTC(2026, 0, 1);
const JOB = 'webhook-sender';

const endpoint = {
  id: 'whe_fence',
  kind: 'webhook' as const,
  name: null,
  verification: null,
  accountId: 'usr_fence',
  url: 'https://example.com/hook',
  events: ['alert.triggered' as const],
  description: null,
  secretSealed: 'sealed',
  previousSecretSealed: null,
  previousSecretExpiresAt: null,
  status: 'enabled' as const,
  disabledReason: null,
  createdAt: T0,
  updatedAt: T0,
};
const delivery = (id: string, eventSeq: number) => ({
  id,
  endpointId: 'whe_fence',
  channel: 'webhook' as const,
  accountId: 'usr_fence',
  eventSeq,
  eventId: `evt_${id}`,
  eventType: 'alert.triggered' as const,
  ruleId: null,
  orderKey: id,
  body: '{}',
  test: false,
  nextAttemptAt: T0,
  createdAt: T0,
});

describe.each(dbKinds())('webhook sender writes on %s', (kind) => {
  it('enqueue, settle and endpoint disabling from a stale term are refused and change nothing', async () => {
    const handle = await openTestDatabase(kind);
    try {
      const db = tablesOf<WebhooksTables>(handle.db);
      const endpoints = createKyselyEndpointsRepository(db);
      const deliveries = createKyselyDeliveriesRepository(db);
      await endpoints.insert(endpoint);
      await holdLease(handle.db, JOB, 3);
      const [stale, current] = [believedTerm(JOB, 2), believedTerm(JOB, 3)];

      // Enqueue: neither the deliveries nor the cursor move.
      await expect(
        deliveries.enqueue([delivery('msg_a', 1)], { name: 'events', seq: 1 }, T0, stale),
      ).rejects.toThrow(StaleLeaderError);
      expect(await deliveries.due(T0, 10)).toEqual([]);
      expect(await deliveries.readCursor('events')).toBe(0);
      expect(await deliveries.enqueue([delivery('msg_a', 1)], { name: 'events', seq: 1 }, T0, current)).toBe(
        1,
      );
      expect(await deliveries.readCursor('events')).toBe(1);

      // Settle: the claimed attempt's result from a stale term is not recorded; the row keeps its lease.
      const claimed = await deliveries.claim('msg_a', T0, T0 + 30_000, current);
      const attempt = {
        deliveryId: 'msg_a',
        attempt: claimed!.attempts,
        startedAt: T0,
        latencyMs: 5,
        statusCode: 200,
        outcome: 'delivered' as const,
        error: null,
      };
      const delivered = { status: 'delivered' as const, nextAttemptAt: T0, lastError: null, finishedAt: T0 };
      await expect(deliveries.settle(attempt, delivered, stale)).rejects.toThrow(StaleLeaderError);
      const [row] = (
        await deliveries.list({ accountId: 'usr_fence', endpointId: 'whe_fence' }, { limit: 10 })
      ).data;
      expect(row).toMatchObject({ id: 'msg_a', status: 'pending', leaseUntil: T0 + 30_000 });
      await deliveries.settle(attempt, delivered, current);
      const [done] = (
        await deliveries.list({ accountId: 'usr_fence', endpointId: 'whe_fence' }, { limit: 10 })
      ).data;
      expect(done).toMatchObject({ id: 'msg_a', status: 'delivered' });

      // Disabling an endpoint (a 410 Gone) from a stale term: the endpoint stays enabled.
      await expect(deliveries.disableEndpoint('whe_fence', 'gone', T0, stale)).rejects.toThrow(
        StaleLeaderError,
      );
      expect(await endpoints.findById('whe_fence')).toMatchObject({ status: 'enabled' });
    } finally {
      await handle.close();
    }
  });
});

describe.each(dbKinds())('webhook delivery claims on %s', (kind) => {
  it('a claim from a stale leadership term is refused and leaves the delivery untouched', async () => {
    const handle = await openTestDatabase(kind);
    try {
      const db = tablesOf<WebhooksTables>(handle.db);
      const endpoints = createKyselyEndpointsRepository(db);
      const deliveries = createKyselyDeliveriesRepository(db);
      await endpoints.insert({
        id: 'whe_fence',
        kind: 'webhook',
        name: null,
        verification: null,
        accountId: 'usr_fence',
        url: 'https://example.com/hook',
        events: ['alert.triggered'],
        description: null,
        secretSealed: 'sealed',
        previousSecretSealed: null,
        previousSecretExpiresAt: null,
        status: 'enabled',
        disabledReason: null,
        createdAt: T0,
        updatedAt: T0,
      });
      await deliveries.enqueue(
        [
          {
            id: 'msg_fence',
            endpointId: 'whe_fence',
            channel: 'webhook',
            accountId: 'usr_fence',
            eventSeq: 1,
            eventId: 'evt_fence',
            eventType: 'alert.triggered',
            ruleId: null,
            orderKey: 'fence',
            body: '{}',
            test: false,
            nextAttemptAt: T0,
            createdAt: T0,
          },
        ],
        undefined,
        T0,
      );
      await holdLease(handle.db, JOB, 3);
      await expect(deliveries.claim('msg_fence', T0, T0 + 30_000, believedTerm(JOB, 2))).rejects.toThrow(
        StaleLeaderError,
      );
      const [untouched] = await deliveries.due(T0, 10);
      expect(untouched).toMatchObject({ id: 'msg_fence', attempts: 0, leaseUntil: null });
      expect(await deliveries.claim('msg_fence', T0, T0 + 30_000, believedTerm(JOB, 3))).toMatchObject({
        id: 'msg_fence',
        attempts: 1,
        leaseUntil: T0 + 30_000,
      });
    } finally {
      await handle.close();
    }
  });
});
