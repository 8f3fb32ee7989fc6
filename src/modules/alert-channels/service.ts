import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import {
  checkWebhookUrl,
  type DeliveriesRepository,
  type EndpointsRepository,
  type MailTransport,
  type SecretBox,
  type UrlRules,
  presentDelivery,
  type WebhookEndpoint,
} from '../webhooks/index.ts';
import type { ChannelCredentials } from './formats.ts';
import { type PreviewInput, previewMessage } from './preview.ts';
import { CHANNEL_TESTS_PER_HOUR, channelTestDelivery } from './test-message.ts';

export const ALERT_CHANNEL_TYPES = ['email', 'telegram', 'discord', 'slack'] as const;
export type AlertChannelType = (typeof ALERT_CHANNEL_TYPES)[number];

export type CreateChannel = { name?: string } & (
  | { type: 'email'; address: string }
  | { type: 'telegram'; botToken: string; chatId: string }
  | { type: 'discord'; url: string }
  | { type: 'slack'; url: string }
);

export interface AlertChannelsDeps {
  endpoints: EndpointsRepository;
  box: SecretBox | undefined;
  boxMissingReason?: string;
  /** Undefined when no SMTP server is configured: email channels cannot be created. */
  mail: MailTransport | undefined;
  emailFrom: string;
  urlRules: UrlRules;
  /** A Discord / Slack webhook URL must start with this (their documented hosts; tests point them at fakes). */
  discordWebhookBase: string;
  slackWebhookBase: string;
  consoleUrl?: string;
  clock: Clock;
  maxPerAccount?: number;
  /** The outbox a test message is queued in (the sender delivers it like any message). */
  deliveries: Pick<DeliveriesRepository, 'enqueue' | 'list' | 'channelTestsSince'>;
  /** The account's latest event `seq`: a test message is listed among the deliveries of that moment. */
  latestEventSeq(accountId: string): Promise<number>;
  /** Wakes this process's sender, if it runs here (another process's picks the message up on its next poll). */
  wakeSender?(): void;
}

const VERIFY_TTL_MS = 24 * 3_600_000;
const MAX_VERIFY_TRIES = 5;
const MAX_CHANNELS = 20;
const HOUR_MS = 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString();
const codeHash = (id: string, code: string) => createHash('sha256').update(`${id}\n${code}`).digest('hex');

/** A channel as the API shows it: its target (nothing secret in it), never its credentials. */
export function presentChannel(e: WebhookEndpoint) {
  return {
    id: e.id,
    type: e.kind as AlertChannelType,
    name: e.name,
    target: e.url,
    status: e.status,
    disabledReason: e.disabledReason,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

/** What a channel shows of where it sends: the address, the chat, the webhook without its token. */
function targetOf(c: ChannelCredentials): string {
  if (c.type === 'email') return c.address;
  if (c.type === 'telegram') return `telegram chat ${c.chatId}`;
  const url = new URL(c.url);
  const parts = url.pathname.split('/');
  parts[parts.length - 1] = '…';
  return `${url.origin}${parts.join('/')}`;
}

const invalid = (pointer: string, message: string) =>
  new AppError('validation_failed', message, { errors: [{ pointer, message }] });

export type AlertChannelsService = ReturnType<typeof createAlertChannelsService>;

/**
 * Alert channels: where a rule's messages reach a person. Stored as endpoints of the webhook outbox (so they
 * share its retries, address policy and delivery log) with their credentials sealed; an email address gets a
 * code by email and receives nothing until the code comes back.
 */
export function createAlertChannelsService(deps: AlertChannelsDeps) {
  const { endpoints, clock } = deps;
  const cap = deps.maxPerAccount ?? MAX_CHANNELS;

  const box = (): SecretBox => {
    if (deps.box) return deps.box;
    throw new AppError('not_configured', deps.boxMissingReason ?? 'channel credentials cannot be stored');
  };
  const mail = (): MailTransport => {
    if (deps.mail) return deps.mail;
    throw new AppError(
      'not_configured',
      'email channels need an SMTP server: the operator sets MERIDIAN_SMTP_URL',
    );
  };

  const owned = async (accountId: string, id: string) => {
    const e = await endpoints.find(accountId, id);
    if (!e || e.kind === 'webhook') throw new AppError('not_found', `no alert channel ${id}`);
    return e;
  };

  async function credentialsOf(input: CreateChannel): Promise<ChannelCredentials> {
    switch (input.type) {
      case 'email':
        mail();
        return { type: 'email', address: input.address.trim() };
      case 'telegram':
        return { type: 'telegram', botToken: input.botToken, chatId: String(input.chatId) };
      case 'discord':
      case 'slack': {
        const base = input.type === 'discord' ? deps.discordWebhookBase : deps.slackWebhookBase;
        if (!input.url.startsWith(base))
          throw invalid('/body/url', `a ${input.type} webhook URL starts with ${base}`);
        const url = await checkWebhookUrl(input.url, deps.urlRules);
        return { type: input.type, url };
      }
    }
  }

  async function sendCode(endpoint: WebhookEndpoint, address: string) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = clock.now();
    const verification = { hash: codeHash(endpoint.id, code), expiresAt: now + VERIFY_TTL_MS, tries: 0 };
    await endpoints.updateVerification(endpoint.id, { status: 'unverified', verification }, now);
    const link = deps.consoleUrl
      ? `${deps.consoleUrl.replace(/\/+$/, '')}/channels?verify=${endpoint.id}&code=${code}`
      : undefined;
    const answer = await mail().send({
      to: address,
      subject: `Meridian: your verification code is ${code}`,
      text: `Your code to confirm this address for Meridian alerts: ${code}\n${link ? `\nOr open ${link}\n` : ''}\nIt expires in 24 hours. If you did not ask for alerts, ignore this message.`,
      html: `<p>Your code to confirm this address for Meridian alerts: <b>${code}</b></p>${link ? `<p><a href="${link}">Confirm this address</a></p>` : ''}<p>It expires in 24 hours.</p>`,
      headers: { 'X-Meridian-Channel': endpoint.id, 'Auto-Submitted': 'auto-generated' },
    });
    if (answer.kind !== 'response' || answer.statusCode >= 300)
      throw new AppError(
        'unavailable',
        `the SMTP server did not take the verification email (${answer.kind === 'response' ? answer.statusCode : answer.error})`,
      );
  }

  return {
    /** A template rendered for each channel as the rule being edited would send it (nothing is sent). */
    preview(input: Omit<PreviewInput, 'at' | 'consoleUrl'>) {
      return previewMessage({ ...input, at: clock.now(), consoleUrl: deps.consoleUrl });
    },

    async create(accountId: string, input: CreateChannel) {
      const sealer = box();
      const credentials = await credentialsOf(input);
      const existing = (await endpoints.list(accountId)).filter((e) => e.kind !== 'webhook');
      if (existing.length >= cap)
        throw new AppError('conflict', `an account can have at most ${cap} alert channels; delete one first`);
      const now = clock.now();
      const id = newId('ch');
      const endpoint: WebhookEndpoint = {
        id,
        kind: input.type,
        name: input.name ?? null,
        accountId,
        url: targetOf(credentials),
        events: ['alert.triggered', 'onchain.flow'],
        description: null,
        secretSealed: sealer.seal(JSON.stringify(credentials), id),
        previousSecretSealed: null,
        previousSecretExpiresAt: null,
        status: input.type === 'email' ? 'unverified' : 'enabled',
        disabledReason: null,
        verification: null,
        createdAt: now,
        updatedAt: now,
      };
      await endpoints.insert(endpoint);
      if (credentials.type === 'email') {
        try {
          await sendCode(endpoint, credentials.address);
        } catch (error) {
          await endpoints.delete(accountId, id);
          throw error;
        }
      }
      return presentChannel((await endpoints.findById(id)) ?? endpoint);
    },

    async list(accountId: string) {
      return (await endpoints.list(accountId)).filter((e) => e.kind !== 'webhook').map(presentChannel);
    },

    async get(accountId: string, id: string) {
      return presentChannel(await owned(accountId, id));
    },

    async remove(accountId: string, id: string) {
      await owned(accountId, id);
      await endpoints.delete(accountId, id);
    },

    /** Confirms an email address with the code it received; wrong codes count (5, then ask for a new one). */
    async verify(accountId: string, id: string, code: string) {
      const e = await owned(accountId, id);
      if (e.status !== 'unverified') return presentChannel(e);
      const v = e.verification;
      const now = clock.now();
      if (!v || v.expiresAt <= now || v.tries >= MAX_VERIFY_TRIES)
        throw new AppError(
          'conflict',
          'this code has expired or was tried too often; delete the channel and add it again for a new one',
        );
      const given = Buffer.from(codeHash(id, code.trim()));
      if (!timingSafeEqual(given, Buffer.from(v.hash))) {
        await endpoints.updateVerification(
          id,
          { status: 'unverified', verification: { ...v, tries: v.tries + 1 } },
          now,
        );
        throw invalid('/body/code', 'the code does not match');
      }
      await endpoints.updateVerification(id, { status: 'enabled', verification: null }, now);
      return presentChannel({ ...e, status: 'enabled', verification: null, updatedAt: now });
    },

    /**
     * Queues one test message to the channel in the outbox (same sender, retries, address policy and delivery
     * log as an alert's message) and answers its delivery, still pending. Refused for a channel that cannot
     * receive (unverified, disabled) and beyond `CHANNEL_TESTS_PER_HOUR` per channel.
     */
    async sendTest(accountId: string, id: string) {
      const e = await owned(accountId, id);
      if (e.status === 'unverified')
        throw new AppError(
          'conflict',
          `alert channel ${id} is unverified: confirm its address with the emailed code before sending a test`,
        );
      if (e.status !== 'enabled')
        throw new AppError(
          'conflict',
          `alert channel ${id} is disabled${e.disabledReason ? ` (${e.disabledReason})` : ''}; add it again`,
        );
      const now = clock.now();
      const recent = await deps.deliveries.channelTestsSince(id, now - HOUR_MS);
      if (recent.length >= CHANNEL_TESTS_PER_HOUR) {
        const waitMs = recent[recent.length - CHANNEL_TESTS_PER_HOUR]! + HOUR_MS - now;
        throw new AppError(
          'channel_test_limit_reached',
          `alert channel ${id} was sent ${CHANNEL_TESTS_PER_HOUR} test messages in the last hour; try again later`,
          { headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) } },
        );
      }
      const delivery = channelTestDelivery(e, await deps.latestEventSeq(accountId), now);
      await deps.deliveries.enqueue([delivery], undefined, now);
      deps.wakeSender?.();
      return presentDelivery({
        ...delivery,
        status: 'pending',
        attempts: 0,
        leaseUntil: null,
        lastError: null,
        finishedAt: null,
        attemptLog: [],
      });
    },

    /** A channel's deliveries (its alerts' messages and its test messages), newest first, with their attempts. */
    async deliveries(accountId: string, id: string, page: { limit: number; cursor?: string }) {
      await owned(accountId, id);
      const result = await deps.deliveries.list({ accountId, endpointId: id }, page);
      return { data: result.data.map(presentDelivery), nextCursor: result.nextCursor };
    },

    /** Whether each id is a channel of the account (a rule may name only its own). */
    async missing(accountId: string, ids: readonly string[]): Promise<string[]> {
      if (!ids.length) return [];
      const mine = new Set(
        (await endpoints.list(accountId)).filter((e) => e.kind !== 'webhook').map((e) => e.id),
      );
      return ids.filter((id) => !mine.has(id));
    },
  };
}
