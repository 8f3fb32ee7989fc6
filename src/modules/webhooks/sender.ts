import type { LeaderTerm } from '../../shared/leadership.ts';
import type { EventsRepository } from '../events/index.ts';
import { type AttemptDeps, createAttempt } from './attempt.ts';
import type { RetryPolicy } from './retry.ts';
import { deliveryId, matchEndpoints, ruleOf } from './routing.ts';
import type { NewDelivery } from './types.ts';

export interface SenderOptions {
  retry: RetryPolicy;
  /** Deliveries in flight at once to one endpoint. */
  concurrencyPerEndpoint: number;
  /** A claimed attempt's lease: after it, a sender that died mid-attempt has its delivery taken up again. */
  leaseMs: number;
  /** Backstop scan period (the bus wakes the sender at once; a lost publish is caught by this). */
  pollMs: number;
  /**
   * Events younger than this are scanned again on each pass before the cursor moves past them: a producer's
   * transaction can commit a lower `seq` after a higher one is already visible.
   */
  settleMs: number;
  batchSize: number;
}

export const defaultSenderOptions: Omit<SenderOptions, 'retry'> = {
  concurrencyPerEndpoint: 4,
  leaseMs: 30_000,
  pollMs: 1_000,
  settleMs: 30_000,
  batchSize: 500,
};

/** The hourly message caps of alert channels other than webhooks (per rule and per account, by plan). */
export interface MessageCaps {
  limits(
    accountIds: readonly string[],
  ): Promise<Map<string, { perRule: number; perAccount: number; plan: string }>>;
  /** A rule's message was recorded as capped; `until`: when the hour that counted it ends at the latest. */
  onCapped(accountId: string, ruleId: string, until: number): Promise<void>;
}

const HOUR_MS = 3_600_000;

export interface SenderDeps extends AttemptDeps {
  caps?: MessageCaps;
  events: Pick<EventsRepository, 'listAfter'>;
  /** Subscribes to "new account event" announcements; returns the unsubscribe. */
  onEventAnnounced(wake: () => void): Promise<() => Promise<void>>;
}

const CURSOR = 'webhook-sender';

/**
 * The webhook sender (a leader-elected job). Two steps, repeated whenever an event is announced, an attempt
 * finishes or a retry falls due (and every `pollMs` as a backstop):
 * 1. ingest — new events from the log (from a persisted cursor) become delivery rows, one per matching endpoint,
 *    unique per (event, endpoint), written together with the cursor in one transaction;
 * 2. dispatch — due deliveries are claimed (an attempt counted, a lease taken: committed before anything is
 *    sent), signed and posted; the attempt and its outcome are recorded together.
 * A sender killed after claiming leaves a leased row that is taken up again when the lease ends; one killed
 * after the receiver got the message but before recording it sends it again with the same `webhook-id`.
 */
export function createWebhookSender(deps: SenderDeps, options: SenderOptions) {
  const { deliveries, clock, log } = deps;
  let running = false;
  let pumping: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  let cursor = 0;
  let term: LeaderTerm | undefined;
  /** Events already turned into deliveries by this process but still inside the settle window. */
  const seen = new Set<number>();
  const inflight = new Map<string, Promise<void>>();
  const perEndpoint = new Map<string, number>();
  const attemptOnce = createAttempt(deps, options, () => term);

  async function ingest() {
    let from = cursor;
    for (;;) {
      const batch = await deps.events.listAfter(from, options.batchSize);
      if (!batch.length) return;
      const fresh = batch.filter((e) => !seen.has(e.seq));
      const settledBefore = clock.now() - options.settleMs;
      let settled = cursor;
      for (const e of batch) {
        if (e.createdAt > settledBefore) break;
        settled = e.seq;
      }
      const rows: NewDelivery[] = [];
      if (fresh.length) {
        const endpoints = await deps.endpoints.enabledFor([...new Set(fresh.map((e) => e.accountId))]);
        const now = clock.now();
        for (const event of fresh) {
          const rule = ruleOf(event.body);
          for (const endpoint of matchEndpoints(event, endpoints)) {
            rows.push({
              id: deliveryId(event.id, endpoint.id),
              endpointId: endpoint.id,
              channel: endpoint.kind,
              accountId: event.accountId,
              eventSeq: event.seq,
              eventId: event.id,
              eventType: event.type,
              ruleId: rule?.id ?? null,
              orderKey: rule ? `rule:${rule.id}` : `event:${event.id}`,
              body: event.body,
              test: event.test,
              nextAttemptAt: now,
              createdAt: now,
            });
          }
        }
      }
      if (rows.length) await applyCaps(rows);
      if (rows.length || settled > cursor)
        await deliveries.enqueue(
          rows,
          settled > cursor ? { name: CURSOR, seq: settled } : undefined,
          clock.now(),
          term,
        );
      for (const e of fresh) seen.add(e.seq);
      if (settled > cursor) {
        cursor = settled;
        for (const seq of seen) if (seq <= cursor) seen.delete(seq);
      }
      from = batch[batch.length - 1]!.seq;
      if (batch.length < options.batchSize) return;
    }
  }

  /**
   * Marks the messages to people (not webhooks, not test events) beyond their rule's or account's hourly cap:
   * they are stored as `capped` (listed in the delivery log, never sent) and the rule is told.
   */
  async function applyCaps(rows: NewDelivery[]) {
    if (!deps.caps) return;
    const counted = rows.filter((r) => r.channel !== 'webhook' && !r.test);
    if (!counted.length) return;
    const accounts = [...new Set(counted.map((r) => r.accountId))];
    const now = clock.now();
    const [limits, recent] = await Promise.all([
      deps.caps.limits(accounts),
      deliveries.recentMessages(accounts, now - HOUR_MS),
    ]);
    const cappedRules = new Map<string, string>();
    for (const row of counted) {
      const limit = limits.get(row.accountId);
      if (!limit) continue;
      const perAccount = recent.perAccount.get(row.accountId) ?? 0;
      const perRule = row.ruleId ? (recent.perRule.get(row.ruleId) ?? 0) : 0;
      if (row.ruleId && perRule >= limit.perRule)
        row.capped = `capped: the rule reached ${limit.perRule} messages per hour (${limit.plan} plan)`;
      else if (perAccount >= limit.perAccount)
        row.capped = `capped: the account reached ${limit.perAccount} messages per hour (${limit.plan} plan)`;
      if (row.capped) {
        if (row.ruleId) cappedRules.set(row.ruleId, row.accountId);
        continue;
      }
      recent.perAccount.set(row.accountId, perAccount + 1);
      if (row.ruleId) recent.perRule.set(row.ruleId, perRule + 1);
    }
    for (const [ruleId, accountId] of cappedRules) {
      log.warn({ rule: ruleId, account: accountId }, 'alert messages capped for the hour');
      await deps.caps
        .onCapped(accountId, ruleId, now + HOUR_MS)
        .catch((error) => log.error({ err: error, rule: ruleId }, 'could not mark the alert rule capped'));
    }
  }

  async function dispatch() {
    // Saturated endpoints are left out of the query and each other endpoint gets at most its cap, taken
    // round-robin: a hanging endpoint with any number of deliveries queued cannot crowd the others out.
    const saturated = [...perEndpoint]
      .filter(([, n]) => n >= options.concurrencyPerEndpoint)
      .map(([id]) => id);
    const due = await deliveries.due(clock.now(), 200, {
      perEndpoint: options.concurrencyPerEndpoint,
      skip: saturated,
    });
    for (const d of due) {
      if (!running) return;
      if (inflight.has(d.id)) continue;
      const busy = perEndpoint.get(d.endpointId) ?? 0;
      if (busy >= options.concurrencyPerEndpoint) continue;
      perEndpoint.set(d.endpointId, busy + 1);
      const attempt = attemptOnce(d)
        .catch((error) => log.error({ err: error, delivery: d.id }, 'webhook attempt failed unexpectedly'))
        .finally(() => {
          inflight.delete(d.id);
          const left = (perEndpoint.get(d.endpointId) ?? 1) - 1;
          if (left > 0) perEndpoint.set(d.endpointId, left);
          else perEndpoint.delete(d.endpointId);
          wake(false);
        });
      inflight.set(d.id, attempt);
    }
  }

  /** Set by anything that may mean new events (the bus, the backstop timer); an attempt's end only dispatches. */
  let scanLog = true;

  async function pass() {
    if (scanLog) {
      scanLog = false;
      await ingest();
    }
    await dispatch();
  }

  async function schedule() {
    if (!running) return;
    if (timer) clearTimeout(timer);
    const next = await deliveries.nextDueAt();
    const now = clock.now();
    // Something already due but not sent means it waits on an attempt in flight here, whose end wakes us.
    const wait =
      next === undefined
        ? options.pollMs
        : next > now
          ? Math.min(options.pollMs, next - now)
          : inflight.size
            ? options.pollMs
            : 0;
    timer = setTimeout(() => wake(wait === options.pollMs || next === undefined || next > now), wait);
    timer.unref?.();
  }

  function wake(newEvents = true) {
    if (newEvents) scanLog = true;
    if (!running) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = (async () => {
      for (;;) {
        do {
          again = false;
          try {
            await pass();
          } catch (error) {
            scanLog = true;
            log.error({ err: error }, 'webhook sender pass failed; retrying on the next wake-up');
          }
        } while (again && running);
        try {
          await schedule();
        } catch (error) {
          log.error({ err: error }, 'webhook sender could not schedule its next pass');
          timer = setTimeout(wake, options.pollMs);
          timer.unref?.();
        }
        if (!again || !running) return;
      }
    })().finally(() => {
      pumping = undefined;
      if (again && running) wake(false);
    });
  }

  return {
    async start(leaderTerm?: LeaderTerm) {
      term = leaderTerm;
      cursor = await deliveries.readCursor(CURSOR);
      running = true;
      unsubscribe = await deps.onEventAnnounced(() => wake());
      wake();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await unsubscribe?.();
      unsubscribe = undefined;
      await pumping;
      await Promise.all(inflight.values());
    },
    wake,
    /** Resolves when no pass is running and nothing is in flight (tests and the benchmark). */
    async idle() {
      while (pumping || inflight.size) {
        await pumping;
        await Promise.all(inflight.values());
      }
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
