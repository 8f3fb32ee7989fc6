import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { type Container, buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { type EventsTables, insertAccountEvents } from '../../src/modules/events/index.ts';
import { fastHasher } from '../harness/app.ts';
import { type Receiver, startReceiver } from '../webhooks/harness.ts';
import { type MeridianProcess, startMeridian } from './harness/meridian.ts';
import { freePort, waitUntil } from './harness/ports.ts';
import { type OwnPostgres, startOwnPostgres } from './harness/postgres.ts';

/**
 * A webhook receiver that accepts connections and never answers, with 1,000 deliveries queued for it, next
 * to another account's healthy receiver: a real `meridian serve` process (its webhook sender polling every
 * second, no Redis) must keep delivering to the healthy one. The sender once read the 200 oldest due
 * deliveries and skipped those of a saturated endpoint, so the healthy endpoint got nothing until the hanging
 * one's queue drained (83 s with no attempt, measured from outside).
 */
const stuckCount = 1_000;
const concurrency = 4;
const figures: Record<string, unknown> = {};

let postgres: OwnPostgres;
let container: Container;
let serve: MeridianProcess;
let hanging: Receiver;
let healthy: Receiver;
const held: Array<() => void> = [];

async function memberWithToken(email: string) {
  const { user } = await container.accounts.createUser({ email, role: 'member', plan: 'pro' });
  const { token } = await container.accounts.createToken(user.id, { name: 'faults' });
  return { id: user.id, auth: { authorization: `Bearer ${token}` } };
}

async function createWebhook(auth: Record<string, string>, url: string) {
  const res = await fetch(`${serve.baseUrl}/api/webhooks`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['alert.triggered'] }),
  });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${await res.text()}`);
}

/** Appends alert events the way the alerts module does, each of its own rule (so all are due at once). */
function fire(accountId: string, n: number, prefix: string) {
  return insertAccountEvents(
    tablesOf<EventsTables>(container.db.db),
    Array.from({ length: n }, (_, i) => ({
      accountId,
      type: 'alert.triggered' as const,
      data: {
        rule: { id: `alr_${prefix}_${i}`, name: 'fault rule', type: 'price' },
        trigger: { id: `trg_${prefix}_${i}`, firedAt: new Date().toISOString() },
      },
    })),
    Date.now(),
  );
}

describe('a hanging webhook endpoint', () => {
  beforeAll(async () => {
    postgres = await startOwnPostgres();
    const admin = new pg.Client({ connectionString: postgres.url() });
    await admin.connect();
    await admin.query('create database meridian');
    await admin.end();
    const env = {
      DATABASE_URL: postgres.url('meridian'),
      MERIDIAN_MARKET_HISTORY_DAYS: '1',
      MERIDIAN_SECRETS_KEY: 'fault-suite-secret-0123456789abcdefghijkl',
      MERIDIAN_WEBHOOK_ALLOW: '127.0.0.1/32',
      MERIDIAN_WEBHOOK_ALLOW_HTTP: 'true',
      MERIDIAN_WEBHOOK_TIMEOUT_MS: '60000',
      MERIDIAN_WEBHOOK_CONCURRENCY: String(concurrency),
      MERIDIAN_RATE_LIMIT_PRO: '1000000',
    };
    container = await buildContainer(loadConfig({ ...env, LOG_LEVEL: 'silent' }), { hasher: fastHasher });
    await container.accounts.createUser({ email: 'first@example.com', role: 'admin' });
    hanging = await startReceiver();
    hanging.respond = () => new Promise((resolve) => held.push(() => resolve({ status: 204 })));
    healthy = await startReceiver();
    serve = await startMeridian({
      name: 'serve-webhooks',
      role: 'all',
      port: await freePort(),
      env: { ...env, LOG_LEVEL: 'info' },
    });
  }, 240_000);

  afterAll(async () => {
    for (const release of held) release();
    await serve?.kill('SIGKILL').catch(() => {});
    await hanging?.close();
    await healthy?.close();
    await container?.close().catch(() => {});
    postgres?.destroy();
    writeFileSync(
      join(import.meta.dirname, '.last-run-webhook-hang.json'),
      `${JSON.stringify(figures, null, 2)}\n`,
    );
    process.stdout.write(`\nhanging webhook figures:\n${JSON.stringify(figures, null, 2)}\n`);
  }, 60_000);

  it(`keeps delivering to a healthy endpoint while another hangs with ${stuckCount} deliveries queued`, async () => {
    const stuck = await memberWithToken('stuck@example.com');
    const fine = await memberWithToken('fine@example.com');
    await createWebhook(stuck.auth, hanging.url);
    await createWebhook(fine.auth, healthy.url);
    await fire(stuck.id, stuckCount, 'stuck');
    await waitUntil(
      'the hanging endpoint to hold its attempts',
      () => hanging.received.length >= concurrency,
      30_000,
    );

    const firedAt = Date.now();
    await fire(fine.id, 5, 'fine');
    await waitUntil('the healthy endpoint to get all 5', () => healthy.received.length >= 5, 30_000);
    const latencies = healthy.received.map((r) => r.at - firedAt);
    figures.hangingWebhook = {
      stuckDeliveries: stuckCount,
      concurrencyPerEndpoint: concurrency,
      senderPollMs: 1_000,
      healthyFirstMs: Math.min(...latencies),
      healthyAllMs: Math.max(...latencies),
      hangingAttemptsInFlight: hanging.received.length,
    };
    expect(serve.exit).toBeNull();
    // A couple of sender cycles (the backstop poll is 1 s without Redis), not the hanging queue's drain.
    expect(Math.max(...latencies)).toBeLessThan(5_000);
    expect(hanging.received.length).toBe(concurrency); // the hanging one still has only its cap in flight
  }, 120_000);
});
