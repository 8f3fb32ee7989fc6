import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import { type DbHandle, openDatabase } from '../../src/adapters/db/connect.ts';
import { type Container, buildContainer } from '../../src/app/container.ts';
import { buildWebhooks, type WebhooksModule } from '../../src/app/webhooks.ts';
import { type Config, loadConfig } from '../../src/config/env.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { fastHasher } from '../harness/app.ts';
import { openTestPostgres, postgresAvailable } from '../harness/db.ts';
import { startChatFake } from './channel-fakes.ts';
import { fireEvents, waitFor, webhookEnv } from './harness.ts';

const RULE_CAP = 5;
const ACCOUNT_CAP = 8;

/**
 * The hourly message caps on PostgreSQL: counted from the outbox when deliveries are written, per rule and per
 * account, by plan; and with two senders ingesting the same log at once, never more messages than the caps.
 */
describe.skipIf(!postgresAvailable())('hourly message caps on PostgreSQL', () => {
  let db: DbHandle & { url: string };
  let container: Container;
  let config: Config;
  let chat: Awaited<ReturnType<typeof startChatFake>>;
  const senders: Array<{ module: WebhooksModule; db: DbHandle }> = [];
  const cappedRules: string[] = [];

  /** A sender of its own (its own pool and bus), as another process would run it. */
  async function startSenderInstance() {
    const handle = await openDatabase({ databaseUrl: db.url, poolSize: 3 });
    const module = buildWebhooks(
      config,
      {
        db: handle,
        bus: memoryBus(),
        clock: systemClock,
        logger: createLogger('silent'),
        rules: { exists: async () => true },
        exhausted: { onExhausted: async () => {} },
        capped: async (_account, rule) => {
          cappedRules.push(rule);
        },
      },
      { sender: { pollMs: 20, settleMs: 300, jitter: 0 } },
    );
    await module.job.start();
    senders.push({ module, db: handle });
    return module;
  }

  async function stopSenders() {
    for (const s of senders.splice(0)) {
      await s.module.job.stop();
      await s.module.transport.close();
      await s.db.close();
    }
  }

  beforeAll(async () => {
    chat = await startChatFake();
    db = await openTestPostgres();
    config = loadConfig({
      ...webhookEnv,
      LOG_LEVEL: 'silent',
      MERIDIAN_SLACK_WEBHOOK_BASE: `http://127.0.0.1:${chat.port}/services/`,
      MERIDIAN_ALERT_MESSAGES_RULE_STANDARD: String(RULE_CAP),
      MERIDIAN_ALERT_MESSAGES_ACCOUNT_STANDARD: String(ACCOUNT_CAP),
      MERIDIAN_ALERT_MESSAGES_RULE_PRO: String(RULE_CAP * 2),
      MERIDIAN_ALERT_MESSAGES_ACCOUNT_PRO: String(ACCOUNT_CAP * 2),
    });
    container = await buildContainer(config, { db, skipMigrations: true, hasher: fastHasher });
  });
  afterAll(async () => {
    await stopSenders();
    await chat?.close();
    await container?.close();
    await db?.close();
  });

  /** An account (of `plan`) with one Slack channel; `fire` appends triggers of its rules naming the channel. */
  async function account(name: string, plan: 'standard' | 'pro' = 'standard') {
    const { user } = await container.accounts.createUser({
      email: `${name}@example.com`,
      role: 'member',
      password: 'x'.repeat(12),
      plan,
    });
    const channel = await container.webhooks.channels.create(user.id, {
      type: 'slack',
      url: `http://127.0.0.1:${chat.port}/services/T0/B0/${name}`,
    });
    let n = 0;
    const fire = (ruleId: string, count: number) =>
      fireEvents(
        container,
        user.id,
        Array.from({ length: count }, () => ({
          ruleId,
          data: {
            rule: {
              id: ruleId,
              name: ruleId,
              type: 'price',
              template: `${ruleId} {{value}}`,
              channels: { webhookIds: [], channelIds: [channel.id] },
            },
            trigger: { id: `trg_${++n}`, firedAt: new Date().toISOString(), value: n },
          },
        })),
      );
    const sent = () => chat.requests.filter((r) => r.path === `/services/T0/B0/${name}`);
    const statuses = async () => {
      const rows = await db.db
        .selectFrom('webhook_deliveries')
        .select(['rule_id', 'status', 'last_error'])
        .where('account_id', '=', user.id)
        .orderBy('event_seq')
        .execute();
      const count = (rule: string | undefined, status: string) =>
        rows.filter((r) => (rule === undefined || r.rule_id === rule) && r.status === status).length;
      return { rows, count };
    };
    return { user, channel, fire, sent, statuses };
  }

  it('caps per rule and per account, by plan, with one sender', async () => {
    const a = await account('caps-one');
    await startSenderInstance();
    await a.fire('alr_caps_a', 12);
    await a.fire('alr_caps_b', 6);
    await waitFor('every trigger written and the sent ones delivered', async () => {
      const { rows } = await a.statuses();
      return rows.length === 18 && rows.every((r) => r.status === 'delivered' || r.status === 'capped');
    });
    const { count, rows } = await a.statuses();
    // The rule cap stops alr_caps_a at 5; the account cap (8) lets alr_caps_b send 3.
    expect([count('alr_caps_a', 'delivered'), count('alr_caps_a', 'capped')]).toEqual([
      RULE_CAP,
      12 - RULE_CAP,
    ]);
    expect([count('alr_caps_b', 'delivered'), count('alr_caps_b', 'capped')]).toEqual([3, 3]);
    expect(rows.find((r) => r.rule_id === 'alr_caps_a' && r.status === 'capped')!.last_error).toBe(
      `capped: the rule reached ${RULE_CAP} messages per hour (standard plan)`,
    );
    expect(rows.find((r) => r.rule_id === 'alr_caps_b' && r.status === 'capped')!.last_error).toBe(
      `capped: the account reached ${ACCOUNT_CAP} messages per hour (standard plan)`,
    );
    // The first messages are the ones sent; nothing capped was sent.
    expect(rows.slice(0, RULE_CAP).every((r) => r.status === 'delivered')).toBe(true);
    expect(a.sent()).toHaveLength(ACCOUNT_CAP);
    expect(new Set(cappedRules)).toEqual(new Set(['alr_caps_a', 'alr_caps_b']));

    // A pro account gets the pro caps.
    const pro = await account('caps-pro', 'pro');
    await pro.fire('alr_caps_pro', RULE_CAP * 2 + 3);
    await waitFor('the pro triggers settled', async () => {
      const { rows: r } = await pro.statuses();
      return r.length === RULE_CAP * 2 + 3 && r.every((x) => x.status !== 'pending');
    });
    const p = await pro.statuses();
    expect([p.count('alr_caps_pro', 'delivered'), p.count('alr_caps_pro', 'capped')]).toEqual([
      RULE_CAP * 2,
      3,
    ]);
    expect(p.rows.find((r) => r.status === 'capped')!.last_error).toContain('(pro plan)');
    await stopSenders();
  });

  it('two senders ingesting at once never send beyond the caps', async () => {
    const a = await account('caps-two');
    await startSenderInstance();
    await startSenderInstance();
    // Triggers arrive in small batches while both senders scan the log, on three rules.
    for (let round = 0; round < 8; round++) {
      await a.fire('alr_two_a', 2);
      await a.fire('alr_two_b', 1);
      await a.fire('alr_two_c', 1);
      await new Promise((r) => setTimeout(r, 15));
    }
    await waitFor('all 32 triggers written and settled', async () => {
      const { rows } = await a.statuses();
      return rows.length === 32 && rows.every((r) => r.status === 'delivered' || r.status === 'capped');
    });
    // Let any sender still holding a stale view finish its passes before counting what was sent.
    await Promise.all(senders.map((s) => s.module.sender?.idle()));
    const { count } = await a.statuses();
    for (const rule of ['alr_two_a', 'alr_two_b', 'alr_two_c'])
      expect(count(rule, 'delivered'), rule).toBeLessThanOrEqual(RULE_CAP);
    expect(count(undefined, 'delivered')).toBeLessThanOrEqual(ACCOUNT_CAP);
    expect(count(undefined, 'capped')).toBeGreaterThanOrEqual(32 - ACCOUNT_CAP);
    // Each message is sent once (the outbox row is unique per trigger and channel), capped ones never.
    expect(a.sent()).toHaveLength(count(undefined, 'delivered'));
    await stopSenders();
  });
});
