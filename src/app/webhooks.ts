import { Gauge } from 'prom-client';
import type { Metrics } from '../observability/metrics.ts';
import type { LeaderTerm } from '../shared/leadership.ts';
import { lookup as dnsLookup, promises as dns } from 'node:dns';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import { aesGcmSecretBox, keyFromFile, keyFromOperatorSecret } from '../adapters/webhooks/secret-box.ts';
import { createSmtpTransport } from '../adapters/webhooks/smtp.ts';
import { createGuardedTransport } from '../adapters/webhooks/transport.ts';
import {
  type AlertChannelsService,
  channelFormats,
  createAlertChannelsService,
} from '../modules/alert-channels/index.ts';
import { createKyselyAccountsRepository } from '../modules/accounts/index.ts';
import type { Config } from '../config/env.ts';
import {
  createKyselyEventsRepository,
  type EventsRepository,
  type EventsTables,
  type EventsTopics,
} from '../modules/events/index.ts';
import {
  type AlertRules,
  createAddressPolicy,
  createKyselyDeliveriesRepository,
  createKyselyEndpointsRepository,
  createWebhookSender,
  createWebhooksService,
  type DeliveriesRepository,
  type DeliveryExhausted,
  type MailTransport,
  defaultSenderOptions,
  type SecretBox,
  type SenderOptions,
  type WebhookSender,
  type WebhooksService,
  type WebhooksTables,
  type WebhookTransport,
} from '../modules/webhooks/index.ts';
import { type Bus, topics } from '../shared/bus.ts';
import type { Clock } from '../shared/clock.ts';
import { periodicJob } from '../shared/periodic-job.ts';
import type { Job } from './jobs.ts';
import type { Logger } from '../observability/logger.ts';
import { sweepJob } from '../shared/sweep-job.ts';

export interface WebhooksModule {
  service: WebhooksService;
  /** Email, Telegram, Discord and Slack channels: endpoints of the same outbox. */
  channels: AlertChannelsService;
  events: EventsRepository;
  /** The account's latest event `seq` (0 when none). */
  latestEventSeq(accountId: string): Promise<number>;
  /** Emails an organization's invitation link through the channels' SMTP server (unset: none configured). */
  mailInvitation?: (to: string, organization: string, link: string) => Promise<boolean>;
  /** Undefined when secrets cannot be sealed (scaled mode without MERIDIAN_SECRETS_KEY). */
  sender: WebhookSender | undefined;
  transport: WebhookTransport;
  /** The sender (leader-elected). */
  job: Job;
  /** Prunes account events past the retention period (leader-elected). */
  retentionJob: Job;
  /** The alerts module's rule lookup and failing-state hook (tests may replace them). */
  ports: { rules: AlertRules; exhausted: DeliveryExhausted };
  /** Overrides of the `/events` stream's hub options. */
  eventsStream?: { sweepMs?: number };
}

export interface WebhooksBuildOptions {
  /** Name resolution for the create-time check and the transport (tests simulate DNS answers). */
  lookup?: typeof dnsLookup;
  sender?: Partial<Omit<SenderOptions, 'retry'>> & { jitter?: number };
  /** Test hook: runs between an attempt's claim (committed) and its send. */
  beforeSend?: Parameters<typeof createWebhookSender>[0]['beforeSend'];
  rules?: AlertRules;
  exhausted?: DeliveryExhausted;
  /** The `/events` stream's hub timings (tests shorten the backstop read of the log). */
  eventsStream?: { sweepMs?: number };
}

const RETENTION_SWEEP_MS = 3_600_000;

/**
 * The secret box: MERIDIAN_SECRETS_KEY when set; otherwise, with embedded storage, a key file in the data folder
 * (created on first use); otherwise (PostgreSQL, possibly several replicas that must share one key) none —
 * creating or rotating a webhook answers 503 naming the variable and the sender does not run.
 */
export function secretBoxFor(config: Config): { box?: SecretBox; missing?: string } {
  if (config.secretsKey) return { box: aesGcmSecretBox(keyFromOperatorSecret(config.secretsKey)) };
  if (config.storage === 'pglite') {
    let box: SecretBox | undefined;
    const lazy = () => {
      box ??= aesGcmSecretBox(keyFromFile(config.dataDir));
      return box;
    };
    return { box: { seal: (p, c) => lazy().seal(p, c), open: (s, c) => lazy().open(s, c) } };
  }
  return {
    missing:
      'webhook signing secrets are stored encrypted and this server has no key: set MERIDIAN_SECRETS_KEY (32+ characters, the same on every replica)',
  };
}

export function buildWebhooks(
  config: Config,
  deps: {
    db: DbHandle;
    bus: Bus<EventsTopics>;
    clock: Clock;
    logger: Logger;
    /** The alerts module: whose rules exist (deliveries per rule) and the rule's failing state. */
    rules: AlertRules;
    /** Where the outbox gauges are registered (none: no gauges). */
    metrics?: Pick<Metrics, 'registry'>;
    exhausted: DeliveryExhausted;
    /** The alerts module's "rule reached its message cap" hook. */
    capped?: (accountId: string, ruleId: string, until: number) => Promise<void>;
  },
  options: WebhooksBuildOptions = {},
): WebhooksModule {
  const log = deps.logger;
  const lookup = options.lookup ?? dnsLookup;
  const policy = createAddressPolicy(config.webhookAllow);
  const events = createKyselyEventsRepository(tablesOf<EventsTables>(deps.db.db));
  const endpoints = createKyselyEndpointsRepository(tablesOf<WebhooksTables>(deps.db.db));
  const deliveries: DeliveriesRepository = createKyselyDeliveriesRepository(
    tablesOf<WebhooksTables>(deps.db.db),
  );
  if (deps.metrics) registerOutboxGauges(deps.metrics, deliveries, deps.clock);
  const { box, missing } = secretBoxFor(config);
  const eventTables = tablesOf<EventsTables>(deps.db.db);
  const latestEventSeq = async (accountId: string) => {
    const row = await eventTables
      .selectFrom('account_events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
  };
  const ports = {
    rules: options.rules ?? deps.rules,
    exhausted: options.exhausted ?? deps.exhausted,
  };

  const resolve = options.lookup
    ? (host: string) =>
        new Promise<string[]>((done, fail) =>
          lookup(host, { all: true }, (error, addresses) =>
            error ? fail(error) : done(addresses.map((a) => a.address)),
          ),
        )
    : async (host: string) => (await dns.lookup(host, { all: true })).map((a) => a.address);

  const service = createWebhooksService({
    endpoints,
    deliveries,
    box,
    boxMissingReason: missing,
    urlRules: { policy, allowHttp: config.webhookAllowHttp, resolve },
    rules: { exists: (accountId, ruleId) => ports.rules.exists(accountId, ruleId) },
    clock: deps.clock,
  });

  const transport = createGuardedTransport({ policy, timeoutMs: config.webhookTimeoutMs, lookup });
  const mail = config.smtpUrl
    ? createSmtpTransport({ url: config.smtpUrl, from: config.smtpFrom, timeoutMs: config.webhookTimeoutMs })
    : undefined;
  const channels = createAlertChannelsService({
    endpoints,
    box,
    boxMissingReason: missing,
    mail,
    emailFrom: config.smtpFrom,
    urlRules: { policy, allowHttp: config.webhookAllowHttp, resolve },
    discordWebhookBase: config.discordWebhookBase,
    slackWebhookBase: config.slackWebhookBase,
    consoleUrl: config.consoleUrl,
    clock: deps.clock,
    deliveries,
    latestEventSeq: (accountId) => latestEventSeq(accountId),
    wakeSender: () => sender?.wake(false),
  });
  const users = createKyselyAccountsRepository(tablesOf(deps.db.db));
  const capsByPlan: Record<string, { perRule: number; perAccount: number }> = {
    standard: { perRule: config.alertMessagesRuleStandard, perAccount: config.alertMessagesAccountStandard },
    pro: { perRule: config.alertMessagesRulePro, perAccount: config.alertMessagesAccountPro },
  };
  const { jitter, ...senderOverrides } = options.sender ?? {};
  const sender = box
    ? createWebhookSender(
        {
          events,
          endpoints,
          deliveries,
          transport,
          mail,
          formats: channelFormats({
            telegramApiUrl: config.telegramApiUrl,
            emailFrom: config.smtpFrom,
            consoleUrl: config.consoleUrl,
          }),
          caps: {
            async limits(accountIds) {
              const out = new Map<string, { perRule: number; perAccount: number; plan: string }>();
              for (const id of accountIds) {
                // An account here is an organization: its plan sets the caps.
                const org = await users.findOrganization(id);
                const plan = org && org.plan in capsByPlan ? org.plan : 'standard';
                out.set(id, { ...capsByPlan[plan]!, plan });
              }
              return out;
            },
            onCapped: async (accountId, ruleId, until) => deps.capped?.(accountId, ruleId, until),
          },
          box,
          clock: deps.clock,
          exhausted: { onExhausted: (accountId, ruleId) => ports.exhausted.onExhausted(accountId, ruleId) },
          onEventAnnounced: (wake) => deps.bus.subscribe(topics.accountEvent, () => wake()),
          log,
          beforeSend: options.beforeSend,
        },
        {
          ...defaultSenderOptions,
          concurrencyPerEndpoint: config.webhookConcurrency,
          leaseMs: config.webhookTimeoutMs * 2 + 5_000,
          ...senderOverrides,
          retry: { schedule: config.webhookRetrySchedule, jitter: jitter ?? 0.2 },
        },
      )
    : undefined;

  let term: LeaderTerm | undefined;
  const sweep = periodicJob({
    name: 'events-retention',
    everyMs: RETENTION_SWEEP_MS,
    log,
    run: async () => {
      const cutoff = deps.clock.now() - config.eventRetentionHours * 3_600_000;
      const removed = await events.pruneBefore(cutoff, term);
      if (removed) log.info({ removed }, 'account events past retention pruned');
    },
  });

  return {
    service,
    channels,
    events,
    latestEventSeq,
    eventsStream: options.eventsStream,
    mailInvitation: mail && ((to, organization, link) => mailInvitation(mail, to, organization, link)),
    sender,
    transport,
    ports,
    job: {
      name: 'webhook-sender',
      start: async (term) => {
        if (sender) await sender.start(term);
        else log.error({}, `webhook sender not started: ${missing}`);
      },
      stop: async () => {
        await sender?.stop();
      },
    },
    retentionJob: sweepJob(sweep, (leaderTerm) => {
      term = leaderTerm;
    }),
  };
}

/**
 * `meridian_webhook_outbox_pending` and `meridian_webhook_outbox_oldest_seconds`, read from storage when
 * scraped. Storage that does not answer leaves the last values (a scrape never fails because of it).
 */
function registerOutboxGauges(
  metrics: Pick<Metrics, 'registry'>,
  deliveries: DeliveriesRepository,
  clock: Clock,
) {
  const gauge = (
    name: string,
    help: string,
    value: (depth: { pending: number; oldestQueuedAt: number | null }) => number,
  ) =>
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      async collect() {
        const depth = await deliveries.outboxDepth().catch(() => undefined);
        if (depth) this.set(value(depth));
      },
    });
  gauge(
    'meridian_webhook_outbox_pending',
    'Webhook deliveries waiting in the outbox (pending: not yet delivered, failed or given up)',
    (d) => d.pending,
  );
  gauge(
    'meridian_webhook_outbox_oldest_seconds',
    'Age of the oldest pending webhook delivery (0 when the outbox is empty)',
    (d) => (d.oldestQueuedAt === null ? 0 : Math.max(0, (clock.now() - d.oldestQueuedAt) / 1000)),
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An invitation link by email; true when the SMTP server took it. */
async function mailInvitation(mail: MailTransport, to: string, organization: string, link: string) {
  const answer = await mail.send({
    to,
    subject: `Meridian: you are invited to ${organization.replace(/[\r\n]+/g, ' ')}`,
    text: `You are invited to join the organization "${organization}" on Meridian.\n\nOpen ${link}\n\nThe link works once and expires; if you did not expect it, ignore this message.`,
    html: `<p>You are invited to join the organization <b>${escapeHtml(organization)}</b> on Meridian.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a></p><p>The link works once and expires; if you did not expect it, ignore this message.</p>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
  });
  return answer.kind === 'response' && answer.statusCode < 300;
}
