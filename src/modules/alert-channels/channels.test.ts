import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../../test/harness/wait.ts';
import { systemClock } from '../../shared/clock.ts';
import { createMemoryEventsRepository } from '../events/index.ts';
import {
  createMemoryWebhooksRepositories,
  createWebhookSender,
  defaultSenderOptions,
  type WebhookEndpoint,
  type WebhookRequest,
} from '../webhooks/index.ts';
import { channelFormats } from './formats.ts';
import { unknownVariables } from './template.ts';

const box = { seal: (p: string) => `sealed:${p}`, open: (s: string) => s.slice(7) };
const log = { info() {}, warn() {}, error() {} };

const channel = (id: string, kind: WebhookEndpoint['kind'], credentials: object): WebhookEndpoint => ({
  id,
  kind,
  name: null,
  accountId: 'usr_a',
  url: 'display',
  events: ['alert.triggered', 'onchain.flow'],
  description: null,
  secretSealed: box.seal(JSON.stringify({ type: kind, ...credentials })),
  previousSecretSealed: null,
  previousSecretExpiresAt: null,
  status: 'enabled',
  disabledReason: null,
  verification: null,
  createdAt: 0,
  updatedAt: 0,
});

const HOSTILE = '<script>x</script> *b* _i_ [l](http://evil) <!channel> @everyone &';
const body = (ruleId: string, n: number, over: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: `evt_${ruleId}_${n}`,
    type: 'alert.triggered',
    timestamp: '2026-11-27T00:00:00.000Z',
    test: false,
    data: {
      rule: {
        id: ruleId,
        name: HOSTILE,
        type: 'price',
        symbol: `BTC${HOSTILE}`,
        condition: { op: 'above', value: 1 },
        channels: { webhookIds: [], channelIds: ['ch_slack'], events: true },
        template: null,
        ...over,
      },
      trigger: { id: 'trg', firedAt: '2026-11-27T00:00:00.000Z', value: 2 },
      market: { symbol: 'BTCUSDT', price: 2 },
    },
  });

describe('templates', () => {
  it('names the unknown variables of a template', () => {
    expect(unknownVariables('{{symbol}} {{ price }} {{nope}} {{ rule_name }} {{x y}}')).toEqual([
      'nope',
      'x y',
    ]);
    expect(unknownVariables('no variables')).toEqual([]);
  });

  it('renders a symbol and a name holding markup inert in every channel', () => {
    const formats = channelFormats({ telegramApiUrl: 'https://api.telegram.org', emailFrom: 'a@b.c' });
    const delivery = { id: 'msg_1', eventId: 'evt_1', ruleId: 'alr_1', body: body('alr_1', 1) };
    const compose = (kind: WebhookEndpoint['kind'], credentials: object) =>
      formats[kind]!.compose({
        endpoint: channel(`ch_${kind}`, kind, credentials),
        delivery: delivery as never,
        box,
        sentAt: 0,
      });
    const http = (m: ReturnType<typeof compose>) =>
      JSON.parse((m as { request: WebhookRequest }).request.body);

    const telegram = http(compose('telegram', { botToken: '1:abc', chatId: '5' })).text as string;
    // MarkdownV2: every special character escaped; no unescaped * _ [ ] ( ) left from the input.
    const payload = telegram.split('\n').slice(1).join('\n');
    expect(payload.replace(/\\[_*[\]()~`>#+\-=|{}.!\\]/g, '')).not.toMatch(/[_*[\]()~`>#+\-=|{}.!]/);

    const discord = http(compose('discord', { url: 'https://discord.com/api/webhooks/1/t' }));
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    expect(discord.content).toContain('\\@everyone');
    expect(discord.content).toContain('\\[l\\]\\(http\\://evil\\)');

    const slack = http(compose('slack', { url: 'https://hooks.slack.com/services/x' })).text as string;
    expect(slack).not.toMatch(/[<>]/);
    expect(slack).toContain('&lt;!channel&gt;');

    const email = compose('email', { address: 'a@example.com' }) as {
      message: { html: string; subject: string; text: string; messageId: string };
    };
    // The Message-ID is the delivery's, in the sender's domain: a resent copy is the same message.
    expect(email.message.messageId).toBe('<msg_1@b.c>');
    expect(email.message.html).not.toContain('<script>');
    expect(email.message.html).toContain('&lt;script&gt;');
    expect(email.message.subject).not.toMatch(/[\r\n]/);
  });
});

describe('hourly message caps', () => {
  it('records the messages beyond a rule cap as capped, sends the others, and tells the rule', async () => {
    const { endpoints, deliveries } = createMemoryWebhooksRepositories();
    const events = createMemoryEventsRepository();
    await endpoints.insert(channel('ch_slack', 'slack', { url: 'https://hooks.slack.com/services/x' }));
    const sent: WebhookRequest[] = [];
    const capped: string[] = [];
    const sender = createWebhookSender(
      {
        events,
        endpoints,
        deliveries,
        box,
        clock: systemClock,
        log,
        exhausted: { onExhausted: async () => {} },
        onEventAnnounced: async () => async () => {},
        formats: channelFormats({ telegramApiUrl: 'https://api.telegram.org', emailFrom: 'a@b.c' }),
        caps: {
          limits: async (ids) =>
            new Map(ids.map((id) => [id, { perRule: 2, perAccount: 3, plan: 'standard' }])),
          onCapped: async (_account, rule) => {
            capped.push(rule);
          },
        },
        transport: {
          async send(request) {
            sent.push(request);
            return { kind: 'response', statusCode: 200, latencyMs: 1 };
          },
          close: async () => {},
        },
      },
      { ...defaultSenderOptions, pollMs: 20, settleMs: 100, retry: { schedule: [10], jitter: 0 } },
    );
    const add = (rule: string, n: number) =>
      events.add({
        id: `evt_${rule}_${n}`,
        accountId: 'usr_a',
        type: 'alert.triggered',
        body: body(rule, n, { id: rule }),
        test: false,
        createdAt: Date.now(),
      });
    for (let n = 1; n <= 4; n++) add('alr_a', n);
    add('alr_b', 1);
    add('alr_b', 2);
    await sender.start();
    await waitUntil(() => sent.length === 3, 'the uncapped messages', 5_000, 5);
    await sender.idle();
    await sender.stop();
    const a = await deliveries.list({ accountId: 'usr_a', ruleId: 'alr_a' }, { limit: 10 });
    expect(a.data.map((d) => d.status).sort()).toEqual(['capped', 'capped', 'delivered', 'delivered']);
    expect(a.data.find((d) => d.status === 'capped')!.lastError).toContain(
      '2 messages per hour (standard plan)',
    );
    const b = await deliveries.list({ accountId: 'usr_a', ruleId: 'alr_b' }, { limit: 10 });
    // The account cap (3) stops alr_b's second message.
    expect(b.data.map((d) => d.status).sort()).toEqual(['capped', 'delivered']);
    expect(b.data.find((d) => d.status === 'capped')!.lastError).toContain('the account reached 3');
    expect(new Set(capped)).toEqual(new Set(['alr_a', 'alr_b']));
    expect(sent).toHaveLength(3);
  });
});
