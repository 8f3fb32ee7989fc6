import type {
  Attempt,
  Delivery,
  DeliveryStatus,
  DeliveryWithAttempts,
  NewDelivery,
  WebhookEndpoint,
} from './model.ts';

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

/** The outbox and its attempt log, and the sender's cursor over the event log. */
export interface DeliveriesRepository {
  readCursor(name: string): Promise<number>;
  /**
   * In one transaction: inserts the deliveries (an (event, endpoint) pair already present is left alone) and
   * moves the cursor. Returns how many rows were new.
   */
  enqueue(
    deliveries: NewDelivery[],
    cursor: { name: string; seq: number } | undefined,
    at: number,
  ): Promise<number>;
  /**
   * Pending deliveries due at `now` and not leased, each the oldest pending one of its endpoint and order
   * key (so one rule's events reach an endpoint in order), oldest first.
   */
  due(now: number, limit: number): Promise<Delivery[]>;
  /**
   * When the next delivery `due` would return falls due: the earliest among the pending ones at the head of
   * their endpoint and order key, a leased one counting from its lease's end (undefined when none is pending).
   */
  nextDueAt(): Promise<number | undefined>;
  /**
   * Takes a delivery for one attempt: counts the attempt and leases the row until `leaseUntil`, only if it is
   * still pending, due and unleased (so two senders never send the same attempt). Undefined when taken.
   */
  claim(id: string, now: number, leaseUntil: number): Promise<Delivery | undefined>;
  /** Records one attempt and the delivery's new state, in one transaction. */
  settle(
    attempt: Attempt,
    next: {
      status: DeliveryStatus;
      nextAttemptAt: number;
      lastError: string | null;
      finishedAt: number | null;
    },
  ): Promise<void>;
  /** Disables an endpoint and fails its pending deliveries; returns the failed ones. */
  disableEndpoint(endpointId: string, reason: string, at: number): Promise<Delivery[]>;
  list(filter: DeliveryFilter, options: { limit: number; cursor?: string }): Promise<DeliveryPage>;
}

/** In-memory twin of the endpoints store, for unit tests of the service. */
export function createMemoryEndpointsRepository(): EndpointsRepository {
  const rows = new Map<string, WebhookEndpoint>();
  const mine = (accountId: string, id: string) => {
    const row = rows.get(id);
    return row && row.accountId === accountId ? row : undefined;
  };
  return {
    insert: async (endpoint) => {
      rows.set(endpoint.id, { ...endpoint });
    },
    find: async (accountId, id) => mine(accountId, id),
    findById: async (id) => rows.get(id),
    list: async (accountId) =>
      [...rows.values()].filter((e) => e.accountId === accountId).sort((a, b) => b.createdAt - a.createdAt),
    countForAccount: async (accountId) => [...rows.values()].filter((e) => e.accountId === accountId).length,
    delete: async (accountId, id) => (mine(accountId, id) ? rows.delete(id) : false),
    updateSecrets: async (id, secrets, at) => {
      const row = rows.get(id);
      if (!row) return;
      row.secretSealed = secrets.sealed;
      row.previousSecretSealed = secrets.previousSealed;
      row.previousSecretExpiresAt = secrets.previousExpiresAt;
      row.updatedAt = at;
    },
    enabledFor: async (accountIds) =>
      [...rows.values()].filter((e) => e.status === 'enabled' && accountIds.includes(e.accountId)),
  };
}
