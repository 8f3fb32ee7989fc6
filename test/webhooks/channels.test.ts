import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../harness/app.ts';
import { startChatFake, startSmtp } from './channel-fakes.ts';
import { createWebhookApp, waitFor } from './harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: request bodies are checked field by field
type Json = any;

const HOSTILE = '<b>x</b> *bold* _it_ [link](http://evil.example) <!channel> @everyone & `code`';
const TOKEN = '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345678';

describe('alert channels: email, Telegram, Discord and Slack through the webhook outbox', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let chat: Awaited<ReturnType<typeof startChatFake>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    chat = await startChatFake({ telegram429First: true });
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

  it('verifies an email address by code, then every channel gets the rule message, escaped, 429 honoured', async () => {
    const user = await t.user('member');
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: user.auth, payload });

    // Email: a code by real SMTP; nothing is sent to the address before it comes back.
    const email = await post('/api/alert-channels', { type: 'email', address: 'trader@example.com' });
    expect(email.statusCode).toBe(201);
    expect(email.json()).toMatchObject({ type: 'email', status: 'unverified', target: 'trader@example.com' });
    await waitFor('the verification email', () => smtp.mails.length === 1);
    const verification = smtp.mails[0]!;
    expect(verification.to).toBe('trader@example.com');
    expect(verification.raw).toMatch(/^Subject: Meridian: your verification code is \d{6}/m);
    expect(verification.raw).toMatch(/^From: Meridian Alerts <alerts@meridian\.test>/m);
    const code = /verification code is (\d{6})/.exec(verification.raw)![1]!;
    const emailId = email.json().id;
    const wrong = await post(`/api/alert-channels/${emailId}/verify`, {
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    const verified = await post(`/api/alert-channels/${emailId}/verify`, { code });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().status).toBe('enabled');

    const telegram = await post('/api/alert-channels', {
      type: 'telegram',
      botToken: TOKEN,
      chatId: '-1001234',
    });
    const discord = await post('/api/alert-channels', {
      type: 'discord',
      url: `http://127.0.0.1:${chat.port}/api/webhooks/42/discordtoken`,
    });
    const slack = await post('/api/alert-channels', {
      type: 'slack',
      url: `http://127.0.0.1:${chat.port}/services/T0/B0/slacktoken`,
    });
    for (const r of [telegram, discord, slack]) expect(r.statusCode, r.body).toBe(201);
    // Credentials are never returned.
    const listed = await t.app.inject({ method: 'GET', url: '/api/alert-channels', headers: user.auth });
    expect(listed.json().data).toHaveLength(4);
    expect(listed.body).not.toContain(TOKEN.split(':')[1]);
    expect(listed.body).not.toContain('discordtoken');
    expect(listed.body).not.toContain('slacktoken');

    // A template naming an unknown variable is refused at save time, the variable named.
    const bad = await post('/api/alerts', {
      type: 'price',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: 1e9 },
      template: '{{symbol}} {{nope}}',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('{{nope}}');

    const ids = [emailId, telegram.json().id, discord.json().id, slack.json().id];
    const rule = await post('/api/alerts', {
      type: 'price',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: 1e9 },
      name: HOSTILE,
      channels: { channelIds: ids },
      template: 'Alert {{rule_name}} on {{symbol}} ({{condition}})',
    });
    expect(rule.statusCode, rule.body).toBe(201);
    expect(rule.json().template).toBe('Alert {{rule_name}} on {{symbol}} ({{condition}})');
    const fired = await post(`/api/alerts/${rule.json().id}/test`, {});
    expect(fired.statusCode).toBe(202);

    await waitFor(
      'a message on every channel (Telegram after its retry_after)',
      () =>
        smtp.mails.length === 2 &&
        chat.requests.filter((r) => r.path.startsWith('/bot')).length === 2 &&
        chat.requests.some((r) => r.path.startsWith('/api/webhooks/')) &&
        chat.requests.some((r) => r.path.startsWith('/services/')),
      15_000,
    );

    // Telegram: POST /bot<token>/sendMessage, chat_id, MarkdownV2 with every special character escaped.
    const [limited, sent] = chat.requests.filter((r) => r.path.startsWith('/bot'));
    expect(sent!.method).toBe('POST');
    expect(sent!.path).toBe(`/bot${TOKEN}/sendMessage`);
    expect(sent!.body.chat_id).toBe('-1001234');
    expect(sent!.body.parse_mode).toBe('MarkdownV2');
    expect(sent!.body.text).toContain('\\*bold\\*');
    expect(sent!.body.text).toContain('\\[link\\]\\(http://evil\\.example\\)');
    expect(sent!.body.text).not.toMatch(/(^|[^\\])\[link\]/);
    // The 429's retry_after (1 s) was honoured over the 50 ms retry schedule.
    expect(sent!.at - limited!.at).toBeGreaterThanOrEqual(950);

    // Discord: execute webhook, mentions disabled, markdown escaped.
    const d = chat.requests.find((r) => r.path.startsWith('/api/webhooks/'))!;
    expect(d.path).toBe('/api/webhooks/42/discordtoken?wait=true');
    expect(d.body.allowed_mentions).toEqual({ parse: [] });
    expect(d.body.content).toContain('\\*bold\\*');
    expect(d.body.content).toContain('\\@everyone');
    expect(d.body.content).toContain('\\<b\\>x\\</b\\>');

    // Slack: incoming webhook, &, < and > as entities (no link, no @channel).
    const s = chat.requests.find((r) => r.path.startsWith('/services/'))!;
    expect(s.body.text).toContain('&lt;!channel&gt;');
    expect(s.body.text).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(s.body.text).toContain('&amp;');

    // Email: subject, headers, and an HTML part where the markup is text.
    const alert = smtp.mails[1]!;
    expect(alert.to).toBe('trader@example.com');
    expect(alert.raw).toMatch(/^Subject: /m);
    expect(alert.raw).toMatch(/^X-Meridian-Rule: alr_/m);
    expect(alert.raw).toMatch(/^Auto-Submitted: auto-generated/m);
    expect(alert.raw).toMatch(/^Message-ID: <msg_[\w-]+@meridian\.test>$/m);
    expect(alert.raw).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(alert.raw).not.toContain('<b>x</b></p>');

    // Every delivery is in the rule's delivery log, with its channel (recorded just after the answer).
    const deliveries = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/alerts/${rule.json().id}/deliveries`,
          headers: user.auth,
        })
      ).json().data as Json[];
    await waitFor('every delivery recorded', async () =>
      (await deliveries()).every((x: Json) => x.status === 'delivered'),
    );
    const log = await deliveries();
    expect(log.map((x) => x.channel).sort()).toEqual(['discord', 'email', 'slack', 'telegram']);
    const tg = log.find((x) => x.channel === 'telegram');
    expect(tg.attemptLog.map((a: Json) => a.outcome)).toEqual(['rate_limited', 'delivered']);
  });
});
