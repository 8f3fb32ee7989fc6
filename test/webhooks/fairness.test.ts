import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';
import {
  type Receiver,
  createWebhook,
  createWebhookApp,
  fireEvents,
  startReceiver,
  waitFor,
} from './harness.ts';

/**
 * Issue 34 item 11: one hanging receiver with 1,000 deliveries queued ahead must not starve another
 * account's healthy endpoint (the sender once read the 200 oldest due deliveries and skipped those of a
 * saturated endpoint, so the healthy one got nothing until the hanging one's queue drained).
 */
describe.each(dbKinds())('webhook fairness on %s', (kind) => {
  let t: TestApp;
  let hanging: Receiver;
  let healthy: Receiver;
  const held: Array<() => void> = [];

  beforeAll(async () => {
    t = await createWebhookApp(kind, {
      // The hanging receiver keeps every attempt open for the whole test.
      env: { MERIDIAN_WEBHOOK_TIMEOUT_MS: '60000', MERIDIAN_WEBHOOK_CONCURRENCY: '4' },
    });
    hanging = await startReceiver();
    hanging.respond = () => new Promise((resolve) => held.push(() => resolve({ status: 204 })));
    healthy = await startReceiver();
  });
  afterAll(async () => {
    for (const release of held) release();
    await hanging.close();
    await healthy.close();
    await t.container.webhooks.job.stop();
    await t.close();
  });

  it('a healthy endpoint gets its deliveries within a couple of sender cycles behind 1,000 stuck ones', async () => {
    const stuck = await t.user('member');
    const fine = await t.user('member');
    await createWebhook(t, stuck.auth, hanging.url);
    await createWebhook(t, fine.auth, healthy.url);
    // 1,000 events, each of its own rule: all at the head of their line, all due at once.
    await fireEvents(
      t.container,
      stuck.id,
      Array.from({ length: 1_000 }, (_, i) => ({ ruleId: `alr_stuck_${i}` })),
    );
    await t.container.webhooks.job.start();
    await waitFor('the hanging endpoint to hold its 4 attempts', () => hanging.received.length === 4, 20_000);

    const firedAt = Date.now();
    await fireEvents(
      t.container,
      fine.id,
      Array.from({ length: 5 }, (_, i) => ({ ruleId: `alr_fine_${i}` })),
    );
    await waitFor('the healthy endpoint to get all 5', () => healthy.received.length === 5, 15_000);
    const latencyMs = Math.max(...healthy.received.map((r) => r.at)) - firedAt;
    process.stdout.write(`healthy endpoint behind 1,000 stuck deliveries (${kind}): ${latencyMs} ms\n`);
    // The sender polls every 100 ms here; a couple of cycles plus the ingest of the new events.
    expect(latencyMs).toBeLessThan(2_000);
    expect(hanging.received.length).toBe(4); // the cap still holds for the hanging one
  });
});
