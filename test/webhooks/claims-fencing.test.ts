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

describe.each(dbKinds())('webhook delivery claims on %s', (kind) => {
  it('a claim from a stale leadership term is refused and leaves the delivery untouched', async () => {
    const handle = await openTestDatabase(kind);
    try {
      const db = tablesOf<WebhooksTables>(handle.db);
      const endpoints = createKyselyEndpointsRepository(db);
      const deliveries = createKyselyDeliveriesRepository(db);
      await endpoints.insert({
        id: 'whe_fence',
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
