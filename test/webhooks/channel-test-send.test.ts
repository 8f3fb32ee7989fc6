import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../harness/app.ts';
import { startChatFake, startSmtp } from './channel-fakes.ts';
import { createWebhookApp, waitFor } from './harness.ts';

const TOKEN = '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678';

describe('POST /api/alert-channels/:id/test: one labelled message through the outbox', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let chat: Awaited<ReturnType<typeof startChatFake>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    chat = await startChatFake();
    const base = `http://127.0.0.1:${chat.port}`;
    t = await createWebhookApp('pglite', {
      env: {
        MERIDIAN_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?tls=off`,
        MERIDIAN_SMTP_FROM: 'Meridian Alerts <alerts@meridian.test>',
        MERIDIAN_TELEGRAM_API_URL: base,
        MERIDIAN_DISCORD_WEBHOOK_BASE: `${base}/api/webhooks/`,
        MERIDIAN_SLACK_WEBHOOK_BASE: `${base}/services/`,
      },
    });
    await t.container.webhooks.job.start();
  });
  afterAll(async () => {
    await t.container.webhooks.job.stop();
    await chat.close();
    await smtp.close();
    await t.close();
  });

  it('sends each channel type one [test] message, logged as a test delivery and audited', async () => {
    const user = await t.user('member');
    const post = (url: string, payload?: object) =>
      t.app.inject({ method: 'POST', url, headers: user.auth, ...(payload ? { payload } : {}) });

    const email = await post('/api/alert-channels', {
      type: 'email',
      address: 'trader@example.com',
      name: 'Desk mail',
    });
    const emailId = email.json().id;
    // Not verified yet: refused, the channel named, nothing queued.
    const early = await post(`/api/alert-channels/${emailId}/test`);
    expect(early.statusCode).toBe(409);
    expect(early.headers['content-type']).toContain('application/problem+json');
    expect(early.json().detail).toContain(`alert channel ${emailId} is unverified`);
    await waitFor('the verification email', () => smtp.mails.length === 1);
    const code = /verification code is (\d{6})/.exec(smtp.mails[0]!.raw)![1]!;
    expect((await post(`/api/alert-channels/${emailId}/verify`, { code })).statusCode).toBe(200);

    const telegram = await post('/api/alert-channels', { type: 'telegram', botToken: TOKEN, chatId: '-100' });
    const discord = await post('/api/alert-channels', {
      type: 'discord',
      url: `http://127.0.0.1:${chat.port}/api/webhooks/42/discordtoken`,
    });
    const slack = await post('/api/alert-channels', {
      type: 'slack',
      url: `http://127.0.0.1:${chat.port}/services/T0/B0/slacktoken`,
    });
    const ids = [emailId, telegram.json().id, discord.json().id, slack.json().id];

    for (const id of ids) {
      const sent = await post(`/api/alert-channels/${id}/test`);
      expect(sent.statusCode, sent.body).toBe(202);
      expect(sent.json()).toMatchObject({ webhookId: id, test: true, status: 'pending', ruleId: null });
    }

    await waitFor(
      'a test message on every channel',
      () =>
        smtp.mails.length >= 2 &&
        chat.requests.some((r) => r.path.startsWith('/bot')) &&
        chat.requests.some((r) => r.path.startsWith('/api/webhooks/')) &&
        chat.requests.some((r) => r.path.startsWith('/services/')),
      15_000,
    );
    const mail = smtp.mails[1]!;
    expect(mail.to).toBe('trader@example.com');
    expect(mail.raw).toMatch(/^Subject: \[test\] Meridian alert: Desk mail/m);
    expect(mail.raw).toContain('[test] This is a test message for your alert channel Desk mail.');
    const tg = chat.requests.find((r) => r.path.startsWith('/bot'))!;
    expect(tg.path).toBe(`/bot${TOKEN}/sendMessage`);
    expect(tg.body.chat_id).toBe('-100');
    expect(tg.body.text).toContain(
      '\\[test\\] This is a test message for your alert channel telegram chat \\-100',
    );
    const dc = chat.requests.find((r) => r.path.startsWith('/api/webhooks/'))!;
    expect(dc.body.content).toContain('\\[test\\] This is a test message for your alert channel discord');
    const sl = chat.requests.find((r) => r.path.startsWith('/services/'))!;
    expect(sl.body.text).toContain('[test] This is a test message for your alert channel');

    // The channel's delivery log shows the test message delivered, with its attempt.
    await waitFor('the delivery recorded', async () => {
      const log = await t.app.inject({
        method: 'GET',
        url: `/api/alert-channels/${ids[1]}/deliveries`,
        headers: user.auth,
      });
      return log.json().data[0]?.status === 'delivered';
    });
    const log = await t.app.inject({
      method: 'GET',
      url: `/api/alert-channels/${ids[1]}/deliveries`,
      headers: user.auth,
    });
    expect(log.json().data).toHaveLength(1);
    expect(log.json().data[0]).toMatchObject({ test: true, attempts: 1, channel: 'telegram' });
    expect(log.json().data[0].attemptLog[0]).toMatchObject({ outcome: 'delivered', statusCode: 200 });

    const admin = await t.user('admin');
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/audit-log?action=channel.test',
      headers: admin.auth,
    });
    expect(audit.statusCode, audit.body).toBe(200);
    const targets = audit.json().data.map((e: { target: string }) => e.target);
    for (const id of ids) expect(targets).toContain(`channel:${id}`);
  });

  it("answers 404 for another account's channel and caps test messages per channel", async () => {
    const owner = await t.user('member');
    const other = await t.user('member');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/alert-channels',
      headers: owner.auth,
      payload: { type: 'slack', url: `http://127.0.0.1:${chat.port}/services/T1/B1/captoken` },
    });
    const id = created.json().id;
    const test = (auth: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: `/api/alert-channels/${id}/test`, headers: auth });

    const foreign = await test(other.auth);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().detail).toContain(id);
    const foreignLog = await t.app.inject({
      method: 'GET',
      url: `/api/alert-channels/${id}/deliveries`,
      headers: other.auth,
    });
    expect(foreignLog.statusCode).toBe(404);

    for (let i = 0; i < 10; i++) expect((await test(owner.auth)).statusCode).toBe(202);
    const capped = await test(owner.auth);
    // Its own cap, not the account's request quota: 409 with a code of its own, and when to try again.
    expect(capped.statusCode).toBe(409);
    expect(capped.json().code).toBe('channel_test_limit_reached');
    expect(capped.json().detail).toContain('10 test messages in the last hour');
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(3_500);
    // All ten are sent (at least once: an attempt timed out on a loaded machine is sent again).
    await waitFor(
      'the ten test messages delivered',
      async () => {
        const log = await t.app.inject({
          method: 'GET',
          url: `/api/alert-channels/${id}/deliveries`,
          headers: owner.auth,
        });
        const data = log.json().data as { status: string; test: boolean }[];
        return data.length === 10 && data.every((d) => d.status === 'delivered' && d.test);
      },
      30_000,
    );
    expect(chat.requests.filter((r) => r.path.startsWith('/services/T1/')).length).toBeGreaterThanOrEqual(10);
  });
});
