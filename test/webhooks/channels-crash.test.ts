import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/adapters/db/connect.ts';
import { type Container, buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { fastHasher } from '../harness/app.ts';
import { openTestPostgres, postgresAvailable } from '../harness/db.ts';
import { startChatFake, startSmtp } from './channel-fakes.ts';
import { fireEvents, waitFor, webhookEnv } from './harness.ts';
import { senderProcesses, startSender } from './sender-process.ts';

const TRIGGERS = 1_000;
const TOKEN = '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678';
const RULE = 'alr_killed_sender';

/** The value of one mail header (first occurrence, unfolded). */
const header = (raw: string, name: string) =>
  new RegExp(`^${name}: *(.+)$`, 'mi').exec(raw.split(/\r?\n\r?\n/)[0]!)?.[1]?.trim();

/** How often each key occurs, and the extra copies in all. */
function tally(keys: string[]) {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  let duplicates = 0;
  for (const n of counts.values()) duplicates += n - 1;
  return { counts, duplicates };
}

describe.skipIf(!postgresAvailable())(
  'alert channels through a sender SIGKILLed mid-run (PostgreSQL, real processes, real SMTP)',
  () => {
    let db: DbHandle & { url: string };
    let container: Container;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let chat: Awaited<ReturnType<typeof startChatFake>>;
    let env: Record<string, string>;

    beforeAll(async () => {
      smtp = await startSmtp();
      chat = await startChatFake();
      db = await openTestPostgres();
      env = {
        ...webhookEnv,
        DATABASE_URL: db.url,
        MERIDIAN_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?tls=off`,
        MERIDIAN_SMTP_FROM: 'Meridian Alerts <alerts@meridian.test>',
        MERIDIAN_TELEGRAM_API_URL: `http://127.0.0.1:${chat.port}`,
        // The hourly caps are not under test here: room for every trigger on both channels.
        MERIDIAN_ALERT_MESSAGES_RULE_STANDARD: String(TRIGGERS * 2),
        MERIDIAN_ALERT_MESSAGES_ACCOUNT_STANDARD: String(TRIGGERS * 2),
        TEST_LEASE_MS: '1000',
      };
      container = await buildContainer(loadConfig({ ...env, LOG_LEVEL: 'silent' }), {
        db,
        skipMigrations: true,
        hasher: fastHasher,
      });
    });
    afterAll(async () => {
      for (const child of senderProcesses) child.kill('SIGKILL');
      await chat?.close();
      await smtp?.close();
      await container?.close();
      await db?.close();
    });

    it('loses no message on either channel; a duplicate only for what was in flight at a kill, and an email copy keeps its Message-ID', async () => {
      const { user } = await container.accounts.createUser({
        email: 'killed-sender@example.com',
        role: 'member',
        password: 'x'.repeat(12),
      });
      const channels = container.webhooks.channels;
      const email = await channels.create(user.id, { type: 'email', address: 'trader@example.com' });
      await waitFor('the verification email', () => smtp.mails.length === 1);
      const code = /verification code is (\d{6})/.exec(smtp.mails[0]!.raw)![1]!;
      expect((await channels.verify(user.id, email.id, code)).status).toBe('enabled');
      smtp.mails.length = 0;
      const telegram = await channels.create(user.id, { type: 'telegram', botToken: TOKEN, chatId: '-1001' });

      const trigger = (i: number) => ({
        ruleId: RULE,
        data: {
          rule: {
            id: RULE,
            name: 'killed sender',
            type: 'price',
            symbol: 'BTCUSDT',
            condition: { op: 'above', value: 1 },
            template: 'trigger {{value}}',
            channels: { webhookIds: [], channelIds: [email.id, telegram.id] },
          },
          trigger: { id: `trg_${i}`, firedAt: new Date().toISOString(), value: i },
        },
      });
      // Half before the sender starts, the rest while it runs (and across the kill).
      const fired = await fireEvents(
        container,
        user.id,
        Array.from({ length: TRIGGERS / 2 }, (_, i) => trigger(i)),
      );
      const first = startSender('run', env);
      await first.line('READY');
      for (let i = TRIGGERS / 2; i < TRIGGERS; i += 100) {
        fired.push(
          ...(await fireEvents(
            container,
            user.id,
            Array.from({ length: 100 }, (_, j) => trigger(i + j)),
          )),
        );
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(fired).toHaveLength(TRIGGERS);

      const telegramSent = () => chat.requests.filter((r) => r.path === `/bot${TOKEN}/sendMessage`);
      // Two kills, each right after a channel's server took a message (the window a duplicate needs): after
      // 300 Telegram messages, then after 600 emails; a new sender process after each.
      const kills = [
        { what: 'Telegram messages', count: () => telegramSent().length, at: 300 },
        { what: 'emails', count: () => smtp.mails.length, at: 600 },
      ];
      const inFlightAt = { telegram: 0, email: 0 };
      const atKill: string[] = [];
      let sender = first;
      for (const kill of kills) {
        await waitFor(`${kill.at} ${kill.what} before a kill`, () => kill.count() >= kill.at, 300_000);
        sender.child.kill('SIGKILL');
        expect(await sender.exited).toBe('SIGKILL');
        atKill.push(`${kill.count()} ${kill.what}`);
        // In flight at the kill: claimed (leased) and not yet recorded, per channel.
        const leased = await db.db
          .selectFrom('webhook_deliveries')
          .select(['endpoint_id', (eb) => eb.fn.countAll<string>().as('n')])
          .where('status', '=', 'pending')
          .where('lease_until', 'is not', null)
          .groupBy('endpoint_id')
          .execute();
        const inFlight = (id: string) => Number(leased.find((r) => r.endpoint_id === id)?.n ?? 0);
        // One rule's messages reach a channel in order, one at a time: at most one in flight per channel.
        expect(inFlight(telegram.id)).toBeLessThanOrEqual(1);
        expect(inFlight(email.id)).toBeLessThanOrEqual(1);
        inFlightAt.telegram += inFlight(telegram.id);
        inFlightAt.email += inFlight(email.id);
        expect(kill.count()).toBeLessThan(TRIGGERS);
        sender = startSender('run', env);
        await sender.line('READY');
      }
      await waitFor(
        'every delivery recorded as delivered',
        async () => {
          const row = await db.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('account_id', '=', user.id)
            .where('status', '=', 'delivered')
            .executeTakeFirstOrThrow();
          return Number(row.n) === TRIGGERS * 2;
        },
        400_000,
      );
      sender.child.kill('SIGTERM');
      await sender.exited;

      const statuses = await db.db
        .selectFrom('webhook_deliveries')
        .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
        .where('account_id', '=', user.id)
        .groupBy('status')
        .execute();
      expect(statuses.map((r) => [r.status, Number(r.n)])).toEqual([['delivered', TRIGGERS * 2]]);

      // Telegram: every trigger's message received (matched by the value the template renders).
      const chatValues = telegramSent().map((r) => {
        expect(r.body.chat_id).toBe('-1001');
        return /trigger (\d+)$/.exec(r.body.text as string)?.[1] ?? `unmatched: ${r.body.text}`;
      });
      const tg = tally(chatValues);
      const expected = Array.from({ length: TRIGGERS }, (_, i) => String(i));
      expect(expected.filter((v) => !tg.counts.has(v))).toEqual([]);
      expect(tg.counts.size).toBe(TRIGGERS);
      // In order: the first copies of the messages follow the triggers.
      expect([...tg.counts.keys()]).toEqual(expected);
      expect(tg.duplicates).toBeLessThanOrEqual(inFlightAt.telegram);

      // Email: every trigger's message received (matched by X-Meridian-Event), each copy with the Message-ID
      // of its delivery, so the mailbox holds one message per trigger.
      const mails = smtp.mails.map((m) => ({
        event: header(m.raw, 'X-Meridian-Event'),
        delivery: header(m.raw, 'X-Meridian-Delivery'),
        messageId: header(m.raw, 'Message-ID'),
        to: m.to,
      }));
      const byEvent = tally(mails.map((m) => m.event ?? 'no X-Meridian-Event'));
      expect(fired.filter((e) => !byEvent.counts.has(e.id)).map((e) => e.id)).toEqual([]);
      expect(byEvent.counts.size).toBe(TRIGGERS);
      expect(byEvent.duplicates).toBeLessThanOrEqual(inFlightAt.email);
      for (const m of mails) {
        expect(m.to).toBe('trader@example.com');
        expect(m.messageId).toBe(`<${m.delivery}@meridian.test>`);
      }
      expect(tally(mails.map((m) => m.messageId!)).counts.size).toBe(TRIGGERS);

      console.info(
        `killed after ${atKill.join(', then after ')}; in flight at the kills: Telegram ${inFlightAt.telegram}, ` +
          `email ${inFlightAt.email}; duplicates: Telegram ${tg.duplicates}, email ${byEvent.duplicates} ` +
          `(${mails.length} emails, ${TRIGGERS} distinct Message-IDs)`,
      );
      // Minutes on a loaded machine: 2,000 deliveries, each one rule's in order (one at a time per channel).
    }, 900_000);
  },
);
