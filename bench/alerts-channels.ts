import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { request } from 'undici';
import { memoryBus } from '../src/adapters/bus/memory.ts';
import { openDatabase, tablesOf } from '../src/adapters/db/connect.ts';
import { migrateToLatest } from '../src/adapters/db/migrate.ts';
import type { Topics } from '../src/app/bus-topics.ts';
import { buildWebhooks } from '../src/app/webhooks.ts';
import { loadConfig } from '../src/config/env.ts';
import { type EventsTables, insertAccountEvents } from '../src/modules/events/index.ts';
import { createLogger } from '../src/observability/logger.ts';
import { topics } from '../src/shared/bus.ts';
import { systemClock } from '../src/shared/clock.ts';

/**
 * Alert trigger → message accepted, on loopback, for the two kinds of channel transport: a Telegram channel
 * (the Bot API's sendMessage, answered by a local `node:http` fake) and a verified email channel (a real SMTP
 * server, smtp-server). A trigger is appended to the account log and announced on the bus, as the alerts
 * evaluator does; the clock stops when the fake has the whole request, or the SMTP server the whole message.
 * BENCH_CHANNEL_TRIGGERS (200) triggers, one every BENCH_CHANNEL_INTERVAL_MS (100) ms, over 10 rules. Baseline in the same run: the same
 * message sent directly (a POST with undici, a pooled nodemailer `sendMail`). Storage: PGlite in memory, or
 * PostgreSQL with BENCH_DATABASE_URL.
 */
const TRIGGERS = Number(process.env.BENCH_CHANNEL_TRIGGERS ?? 200);
const INTERVAL_MS = Number(process.env.BENCH_CHANNEL_INTERVAL_MS ?? 100);
const RULES = 10;
const TARGET_P99_MS = 2_000;
const TOKEN = '123456:BenchTokenBenchTokenBenchToken0123';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const round = (n: number) => Math.round(n * 10) / 10;
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50Ms: round(percentile(sorted, 0.5)),
    p99Ms: round(percentile(sorted, 0.99)),
    maxMs: round(sorted[sorted.length - 1]!),
  };
};

type Stats = ReturnType<typeof stats>;

export interface AlertsChannelsResult {
  storage: string;
  triggers: number;
  telegram: Stats;
  email: Stats;
  baseline: { telegram: Stats; email: Stats };
  targetP99Ms: number;
  meetsTarget: boolean;
}

/** Resolves when `key` is in `seen` (checked on each arrival). */
function arrivals() {
  const seen = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  return {
    seen,
    mark(key: string) {
      seen.set(key, performance.now());
      waiting.get(key)?.();
      waiting.delete(key);
    },
    until: (key: string) =>
      new Promise<number>((done) => {
        if (seen.has(key)) return done(seen.get(key)!);
        waiting.set(key, () => done(seen.get(key)!));
      }),
  };
}

export async function runAlertsChannels(): Promise<AlertsChannelsResult> {
  const chat = arrivals();
  const mail = arrivals();
  let lastMail = '';
  const chatServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      const text = (JSON.parse(body || '{}') as { text?: string }).text ?? '';
      const key = /trigger (\S+)$/.exec(text)?.[1];
      if (key) chat.mark(key);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, result: { message_id: 1 } }));
    });
  });
  await new Promise<void>((done) => chatServer.listen(0, '127.0.0.1', () => done()));
  const chatUrl = `http://127.0.0.1:${(chatServer.address() as AddressInfo).port}`;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => {
        raw += c.toString('utf8');
      });
      stream.on('end', () => {
        lastMail = raw;
        const key = /^X-Meridian-Event: *(\S+)/m.exec(raw)?.[1] ?? /^X-Bench-Key: *(\S+)/m.exec(raw)?.[1];
        if (key) mail.mark(key);
        done();
      });
    },
  });
  await new Promise<void>((done) => smtp.listen(0, '127.0.0.1', () => done()));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const config = loadConfig({
    ...process.env,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    REDIS_URL: '',
    LOG_LEVEL: 'silent',
    MERIDIAN_SECRETS_KEY: 'bench-operator-secret-0123456789abcdefghijklmnop',
    MERIDIAN_WEBHOOK_ALLOW: '127.0.0.1/32',
    MERIDIAN_WEBHOOK_ALLOW_HTTP: 'true',
    MERIDIAN_SMTP_URL: `smtp://127.0.0.1:${smtpPort}?tls=off`,
    MERIDIAN_SMTP_FROM: 'Meridian Bench <alerts@bench.test>',
    MERIDIAN_TELEGRAM_API_URL: chatUrl,
    // The hourly caps are not measured here.
    MERIDIAN_ALERT_MESSAGES_RULE_STANDARD: '1000000',
    MERIDIAN_ALERT_MESSAGES_ACCOUNT_STANDARD: '1000000',
  });
  const db = await openDatabase({ databaseUrl: config.databaseUrl });
  await migrateToLatest(db.db);
  const bus = memoryBus<Topics>();
  const webhooks = buildWebhooks(config, {
    db,
    bus,
    clock: systemClock,
    logger: createLogger('silent'),
    rules: { exists: async () => false },
    exhausted: { onExhausted: async () => {} },
  });
  const direct = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    ignoreTLS: true,
    pool: true,
  });
  const accountId = `usr_bench_${Date.now()}`;
  try {
    const email = await webhooks.channels.create(accountId, { type: 'email', address: 'trader@bench.test' });
    const code = /verification code is (\d{6})/.exec(lastMail)?.[1];
    if (!code) throw new Error('no verification code received');
    await webhooks.channels.verify(accountId, email.id, code);
    const telegram = await webhooks.channels.create(accountId, {
      type: 'telegram',
      botToken: TOKEN,
      chatId: '-1001',
    });
    await webhooks.job.start();
    const events = tablesOf<EventsTables>(db.db);

    const fire = async (i: number, key = `k${i}`) => {
      const ruleId = `alr_bench_${i % RULES}`;
      const t0 = performance.now();
      const [event] = await insertAccountEvents(
        events,
        [
          {
            accountId,
            type: 'alert.triggered',
            data: {
              rule: {
                id: ruleId,
                name: 'bench',
                type: 'price',
                template: 'trigger {{value}}',
                channels: { webhookIds: [], channelIds: [email.id, telegram.id] },
              },
              trigger: { id: `trg_${i}`, firedAt: new Date().toISOString(), value: key },
            },
          },
        ],
        Date.now(),
      );
      await bus.publish(topics.accountEvent, event!);
      return { t0, chatAt: chat.until(key), mailAt: mail.until(event!.id) };
    };

    // Warm-up: connections, JIT, the first queries.
    await Promise.all(
      (await Promise.all([0, 1, 2, 3, 4].map((i) => fire(i, `warm${i}`)))).flatMap((f) => [
        f.chatAt,
        f.mailAt,
      ]),
    );

    const tg: number[] = [];
    const em: number[] = [];
    const pending: Promise<void>[] = [];
    for (let i = 0; i < TRIGGERS; i++) {
      const f = await fire(i);
      pending.push(
        f.chatAt.then((at) => {
          tg.push(at - f.t0);
        }),
        f.mailAt.then((at) => {
          em.push(at - f.t0);
        }),
      );
      await new Promise((r) => setTimeout(r, INTERVAL_MS));
    }
    await Promise.all(pending);

    const floorChat: number[] = [];
    const floorMail: number[] = [];
    for (let i = 0; i < TRIGGERS; i++) {
      const key = `floor${i}`;
      const t0 = performance.now();
      const res = await request(`${chatUrl}/bot${TOKEN}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          chat_id: '-1001',
          text: `*Meridian alert*\ntrigger ${key}`,
          parse_mode: 'MarkdownV2',
        }),
      });
      await res.body.dump();
      floorChat.push((await chat.until(key)) - t0);
      const m0 = performance.now();
      await direct.sendMail({
        from: 'alerts@bench.test',
        to: 'trader@bench.test',
        subject: 'Meridian alert: bench',
        text: `trigger ${key}`,
        html: `<p>trigger ${key}</p>`,
        headers: { 'X-Bench-Key': key },
      });
      floorMail.push((await mail.until(key)) - m0);
    }

    const telegramStats = stats(tg);
    const emailStats = stats(em);
    return {
      storage: db.kind,
      triggers: TRIGGERS,
      telegram: telegramStats,
      email: emailStats,
      baseline: { telegram: stats(floorChat), email: stats(floorMail) },
      targetP99Ms: TARGET_P99_MS,
      meetsTarget: Math.max(telegramStats.p99Ms, emailStats.p99Ms) <= TARGET_P99_MS,
    };
  } finally {
    direct.close();
    await webhooks.job.stop();
    await webhooks.transport.close();
    await db.close();
    chatServer.closeAllConnections();
    chatServer.close();
    await new Promise<void>((done) => smtp.close(() => done()));
  }
}

export async function run() {
  const r = await runAlertsChannels();
  console.log(
    `alert trigger → message accepted on loopback (${r.storage}; ${r.triggers} triggers, one every ${INTERVAL_MS} ms, ${RULES} rules)`,
  );
  console.table([
    { case: 'Telegram (chat fake)', ...r.telegram },
    { case: 'baseline: the same sendMessage POSTed directly', ...r.baseline.telegram },
    { case: 'email (smtp-server)', ...r.email },
    { case: 'baseline: the same mail by nodemailer directly', ...r.baseline.email },
  ]);
  console.log(
    `p99 Telegram ${r.telegram.p99Ms} ms, email ${r.email.p99Ms} ms vs target ${r.targetP99Ms} ms: ` +
      `${r.meetsTarget ? 'met' : 'MISSED'}; p50 ${round(r.telegram.p50Ms / r.baseline.telegram.p50Ms)}× / ` +
      `${round(r.email.p50Ms / r.baseline.email.p50Ms)}× the direct send`,
  );
  return r;
}
