import { type LeaderTerm, refuseLostTerm } from '../../shared/leadership.ts';
import { encodeCursor, readCursor } from '../../shared/cursor.ts';
import type {
  Attempt,
  Delivery,
  DeliveryStatus,
  DeliveryWithAttempts,
  EndpointStatus,
  NewDelivery,
  Verification,
  WebhookEndpoint,
} from './types.ts';

/** Webhook endpoints of accounts. */
export interface EndpointsRepository {
  insert(endpoint: WebhookEndpoint): Promise<void>;
  find(accountId: string, id: string): Promise<WebhookEndpoint | undefined>;
  list(accountId: string): Promise<WebhookEndpoint[]>;
  countForAccount(accountId: string): Promise<number>;
  /** Deletes the endpoint and, with it, its deliveries; false when the account has no such endpoint. */
  delete(accountId: string, id: string): Promise<boolean>;
  updateSecrets(
    id: string,
    secrets: { sealed: string; previousSealed: string | null; previousExpiresAt: number | null },
    at: number,
  ): Promise<void>;
  /** An email channel's verification: a new pending code, or none once verified (`status` enabled). */
  updateVerification(
    id: string,
    change: { status: EndpointStatus; verification: Verification | null },
    at: number,
  ): Promise<void>;
  /** Enabled endpoints of these accounts (the sender matches events against them). */
  enabledFor(accountIds: readonly string[]): Promise<WebhookEndpoint[]>;
  findById(id: string): Promise<WebhookEndpoint | undefined>;
}

/** What the deliveries list filters on: one rule's deliveries, or one endpoint's. */
export type DeliveryFilter = { accountId: string } & ({ ruleId: string } | { endpointId: string });

export interface DeliveryPage {
  data: DeliveryWithAttempts[];
  nextCursor: string | null;
}

/** How `due` shares its `limit` among endpoints. */
export interface DueFairness {
  /** Most deliveries returned for one endpoint. */
  perEndpoint?: number;
  /** Endpoints left out (saturated ones). */
  skip?: readonly string[];
}

/** The outbox and its attempt log, and the sender's cursor over the event log. */
export interface DeliveriesRepository {
  readCursor(name: string): Promise<number>;
  /**
   * In one transaction: inserts the deliveries (an (event, endpoint) pair already present is left alone) and
   * moves the cursor. Returns how many rows were new. Fenced by the sender's term like `claim`.
   */
  enqueue(
    deliveries: NewDelivery[],
    cursor: { name: string; seq: number } | undefined,
    at: number,
    term?: LeaderTerm,
  ): Promise<number>;
  /**
   * Pending deliveries due at `now` and not leased, each the oldest pending one of its endpoint and order
   * key (so one rule's events reach an endpoint in order). Fair across endpoints: at most `perEndpoint` of
   * each endpoint (default: no cap), none of the `skip` endpoints (those the sender has at their concurrency
   * cap), taken round-robin — every endpoint's oldest, then every endpoint's second oldest, … — so no number
   * of deliveries queued for one endpoint can keep another's out of the first `limit`.
   */
  due(now: number, limit: number, fairness?: DueFairness): Promise<Delivery[]>;
  /**
   * When the next delivery `due` would return falls due: the earliest among the pending ones at the head of
   * their endpoint and order key, a leased one counting from its lease's end (undefined when none is pending).
   */
  nextDueAt(): Promise<number | undefined>;
  /** The outbox's depth: pending deliveries and when the oldest of them was queued (metrics). */
  outboxDepth(): Promise<{ pending: number; oldestQueuedAt: number | null }>;
  /**
   * Takes a delivery for one attempt: counts the attempt and leases the row until `leaseUntil`, only if it is
   * still pending, due and unleased (so two senders never send the same attempt). Undefined when taken.
   * With the sender's leadership term the claim is fenced by it: StaleLeaderError, nothing changed, once the
   * term is no longer current.
   */
  claim(id: string, now: number, leaseUntil: number, term?: LeaderTerm): Promise<Delivery | undefined>;
  /**
   * Records one attempt and the delivery's new state, in one transaction (nothing if the row is gone).
   * Fenced by the sender's term like `claim`: a stale sender's result is refused, and the delivery is
   * attempted again by the current leader once the row's lease ends.
   */
  settle(
    attempt: Attempt,
    next: {
      status: DeliveryStatus;
      nextAttemptAt: number;
      lastError: string | null;
      finishedAt: number | null;
    },
    term?: LeaderTerm,
  ): Promise<void>;
  /** Disables an endpoint and fails its pending deliveries; returns the failed ones. Fenced like `claim`. */
  disableEndpoint(endpointId: string, reason: string, at: number, term?: LeaderTerm): Promise<Delivery[]>;
  list(filter: DeliveryFilter, options: { limit: number; cursor?: string }): Promise<DeliveryPage>;
  /**
   * Messages queued for people (deliveries to alert channels other than webhooks, test events and capped ones
   * left out) created at or after `since`, per account and per rule of these accounts.
   */
  recentMessages(
    accountIds: readonly string[],
    since: number,
  ): Promise<{ perAccount: Map<string, number>; perRule: Map<string, number> }>;
  /** When each test message of the channel itself (a test delivery without a rule) was queued since `since`, oldest first. */
  channelTestsSince(endpointId: string, since: number): Promise<number[]>;
}

/** The page cursor of delivery lists: the last row's event order and id. */
export const encodeDeliveryCursor = (d: { eventSeq: number; id: string }) => encodeCursor([d.eventSeq, d.id]);

export const decodeDeliveryCursor = (cursor: string) => readCursor(cursor, deliveryPosition);

function deliveryPosition(value: unknown): { seq: number; id: string } | undefined {
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [seq, id] = value as unknown[];
  if (!Number.isSafeInteger(seq) || typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id))
    return undefined;
  return { seq: seq as number, id };
}

/** In-memory twins of both stores, sharing their endpoints (disabling one fails its deliveries), for unit tests. */
export function createMemoryWebhooksRepositories(): {
  endpoints: EndpointsRepository;
  deliveries: DeliveriesRepository;
} {
  const rows = new Map<string, WebhookEndpoint>();
  const mine = (accountId: string, id: string) => {
    const row = rows.get(id);
    return row && row.accountId === accountId ? row : undefined;
  };
  const outbox = new Map<string, Delivery>();
  const attempts: Attempt[] = [];
  const cursors = new Map<string, number>();
  const pending = () => [...outbox.values()].filter((d) => d.status === 'pending');
  const headOfLine = (d: Delivery) =>
    !pending().some(
      (o) => o.endpointId === d.endpointId && o.orderKey === d.orderKey && o.eventSeq < d.eventSeq,
    );
  const byOrder = (a: Delivery, b: Delivery) => a.eventSeq - b.eventSeq || (a.id < b.id ? -1 : 1);

  const endpoints: EndpointsRepository = {
    insert: async (endpoint) => {
      rows.set(endpoint.id, { ...endpoint });
    },
    find: async (accountId, id) => mine(accountId, id),
    findById: async (id) => rows.get(id),
    list: async (accountId) =>
      [...rows.values()].filter((e) => e.accountId === accountId).sort((a, b) => b.createdAt - a.createdAt),
    countForAccount: async (accountId) => [...rows.values()].filter((e) => e.accountId === accountId).length,
    delete: async (accountId, id) => {
      if (!mine(accountId, id)) return false;
      for (const d of outbox.values()) if (d.endpointId === id) outbox.delete(d.id);
      return rows.delete(id);
    },
    updateSecrets: async (id, secrets, at) => {
      const row = rows.get(id);
      if (!row) return;
      row.secretSealed = secrets.sealed;
      row.previousSecretSealed = secrets.previousSealed;
      row.previousSecretExpiresAt = secrets.previousExpiresAt;
      row.updatedAt = at;
    },
    updateVerification: async (id, change, at) => {
      const row = rows.get(id);
      if (row) Object.assign(row, { ...change, updatedAt: at });
    },
    enabledFor: async (accountIds) =>
      [...rows.values()].filter((e) => e.status === 'enabled' && accountIds.includes(e.accountId)),
  };

  const deliveries: DeliveriesRepository = {
    readCursor: async (name) => cursors.get(name) ?? 0,
    async enqueue(list, cursor) {
      let inserted = 0;
      for (const d of list) {
        if ([...outbox.values()].some((o) => o.eventId === d.eventId && o.endpointId === d.endpointId))
          continue;
        const { capped, ...row } = d;
        outbox.set(d.id, {
          ...row,
          status: capped ? 'capped' : 'pending',
          attempts: 0,
          leaseUntil: null,
          lastError: capped ?? null,
          finishedAt: capped ? d.createdAt : null,
        });
        inserted++;
      }
      if (cursor) cursors.set(cursor.name, Math.max(cursors.get(cursor.name) ?? 0, cursor.seq));
      return inserted;
    },
    async due(now, limit, fairness = {}) {
      const skip = new Set(fairness.skip ?? []);
      const rank = new Map<Delivery, number>();
      const seenPer = new Map<string, number>();
      for (const d of pending()
        .filter(
          (d) =>
            !skip.has(d.endpointId) &&
            d.nextAttemptAt <= now &&
            (d.leaseUntil === null || d.leaseUntil < now) &&
            headOfLine(d),
        )
        .sort(byOrder)) {
        const n = (seenPer.get(d.endpointId) ?? 0) + 1;
        seenPer.set(d.endpointId, n);
        if (n <= (fairness.perEndpoint ?? Number.POSITIVE_INFINITY)) rank.set(d, n);
      }
      return [...rank.keys()]
        .sort((a, b) => rank.get(a)! - rank.get(b)! || byOrder(a, b))
        .slice(0, limit)
        .map((d) => ({ ...d }));
    },
    async outboxDepth() {
      const list = pending();
      return {
        pending: list.length,
        oldestQueuedAt: list.length ? Math.min(...list.map((d) => d.createdAt)) : null,
      };
    },
    async nextDueAt() {
      const times = pending()
        .filter(headOfLine)
        .map((d) => Math.max(d.nextAttemptAt, d.leaseUntil === null ? 0 : d.leaseUntil + 1));
      return times.length ? Math.min(...times) : undefined;
    },
    async claim(id, now, leaseUntil, term) {
      refuseLostTerm(term);
      const d = outbox.get(id);
      if (d?.status !== 'pending' || d.nextAttemptAt > now || (d.leaseUntil !== null && d.leaseUntil >= now))
        return undefined;
      d.attempts++;
      d.leaseUntil = leaseUntil;
      return { ...d };
    },
    async settle(attempt, next) {
      const d = outbox.get(attempt.deliveryId);
      if (!d) return;
      Object.assign(d, { ...next, leaseUntil: null });
      attempts.push({ ...attempt, latencyMs: Math.round(attempt.latencyMs) });
    },
    async disableEndpoint(endpointId, reason, at) {
      const row = rows.get(endpointId);
      if (row) Object.assign(row, { status: 'disabled', disabledReason: reason, updatedAt: at });
      const failed = pending().filter((d) => d.endpointId === endpointId);
      for (const d of failed)
        Object.assign(d, { status: 'failed', lastError: reason, finishedAt: at, leaseUntil: null });
      return failed.map((d) => ({ ...d }));
    },
    async recentMessages(accountIds, since) {
      const perAccount = new Map<string, number>();
      const perRule = new Map<string, number>();
      for (const d of outbox.values()) {
        if (!accountIds.includes(d.accountId) || d.createdAt < since || d.test) continue;
        if (d.channel === 'webhook' || d.status === 'capped') continue;
        perAccount.set(d.accountId, (perAccount.get(d.accountId) ?? 0) + 1);
        if (d.ruleId) perRule.set(d.ruleId, (perRule.get(d.ruleId) ?? 0) + 1);
      }
      return { perAccount, perRule };
    },
    async channelTestsSince(endpointId, since) {
      return [...outbox.values()]
        .filter((d) => d.endpointId === endpointId && d.test && d.ruleId === null && d.createdAt >= since)
        .map((d) => d.createdAt)
        .sort((a, b) => a - b);
    },
    async list(filter, options) {
      const after = options.cursor ? decodeDeliveryCursor(options.cursor) : undefined;
      const matching = [...outbox.values()]
        .filter(
          (d) =>
            d.accountId === filter.accountId &&
            ('ruleId' in filter ? d.ruleId === filter.ruleId : d.endpointId === filter.endpointId) &&
            (!after || d.eventSeq < after.seq || (d.eventSeq === after.seq && d.id < after.id)),
        )
        .sort((a, b) => byOrder(b, a));
      const page = matching.slice(0, options.limit);
      return {
        data: page.map((d) => ({
          ...d,
          attemptLog: attempts.filter((a) => a.deliveryId === d.id).sort((a, b) => a.attempt - b.attempt),
        })),
        nextCursor: matching.length > options.limit ? encodeDeliveryCursor(page[page.length - 1]!) : null,
      };
    },
  };
  return { endpoints, deliveries };
}
