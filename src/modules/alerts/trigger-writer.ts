import type { Bus } from '../../shared/bus.ts';
import { topics } from '../../shared/bus.ts';
import { newId } from '../../shared/ids.ts';
import type { LeaderTerm } from '../../shared/leadership.ts';
import type { EventsTopics, EventType } from '../events/index.ts';
import type { Occasion } from './occasion.ts';
import { ruleSummary } from './present.ts';
import type { AlertsRepository, RecordedTriggers, StoredTrigger, TriggerRecord } from './repository.ts';
import type { AlertRule } from './rule.ts';

/** A firing decided on an event, composed into its trigger record when it is written. */
export interface PendingFire {
  rule: AlertRule;
  crossing: boolean;
  occasion: Occasion;
  firedAt: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export const eventTypeOf = (rule: AlertRule): EventType =>
  rule.type === 'address_flow' ? 'onchain.flow' : 'alert.triggered';

/** What every event of a rule's starts with: its status (flow events) and the rule. */
const eventHead = (rule: AlertRule) => ({
  ...(rule.type === 'address_flow' ? { status: 'confirmed' } : {}),
  rule: ruleSummary(rule),
});

export function fireRecord({ rule, crossing, occasion, firedAt }: PendingFire): TriggerRecord {
  const id = newId('trg');
  return {
    id,
    ruleId: rule.id,
    accountId: rule.accountId,
    kind: 'fire',
    eventKey: occasion.key,
    version: rule.version,
    once: rule.trigger.mode === 'once',
    satisfied: crossing ? true : undefined,
    eventAt: occasion.at,
    flowId: occasion.flowId ?? null,
    value: occasion.value,
    eventType: eventTypeOf(rule),
    data: {
      ...eventHead(rule),
      trigger: {
        id,
        firedAt: iso(firedAt),
        eventAt: iso(occasion.at),
        key: occasion.key,
        value: occasion.value,
      },
      ...occasion.detail(),
    },
  };
}

/** `POST /api/alerts/:id/test`: an event of the rule's type with `test: true`, no condition evaluated. */
export function testRecord(rule: AlertRule, now: number): TriggerRecord {
  const id = newId('trg');
  return {
    id,
    ruleId: rule.id,
    accountId: rule.accountId,
    kind: 'test',
    eventKey: `test:${id}`,
    eventAt: now,
    eventType: eventTypeOf(rule),
    test: true,
    data: {
      ...eventHead(rule),
      trigger: { id, firedAt: iso(now), test: true },
      note: 'a test event: no condition was evaluated',
    },
  };
}

/** The follow-up of a flow firing whose flow a chain reorganization removed. */
export function retractionRecord(fired: StoredTrigger, rule: AlertRule, at: number): TriggerRecord {
  const id = newId('trg');
  return {
    id,
    ruleId: fired.ruleId,
    accountId: fired.accountId,
    kind: 'retract',
    eventKey: `removed:${fired.eventKey}`,
    eventAt: at,
    flowId: fired.flowId,
    value: fired.value,
    eventType: 'onchain.flow',
    data: {
      status: 'removed',
      replaces: fired.eventId,
      rule: ruleSummary(rule),
      trigger: { id, firedAt: iso(at), replacesTrigger: fired.id },
      removedFlowId: fired.flowId,
      reason: 'chain reorganization',
    },
  };
}

export interface TriggerWriterDeps {
  repo: Pick<AlertsRepository, 'recordTriggers'>;
  bus: Bus<EventsTopics>;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * Records triggers (exactly once per rule and event key, with their account events, in one transaction) and
 * announces the events after commit.
 */
export async function writeTriggers(
  { repo, bus, log }: TriggerWriterDeps,
  records: TriggerRecord[],
  now: number,
  term?: LeaderTerm,
): Promise<RecordedTriggers> {
  if (records.length === 0) return { recorded: [], events: [] };
  const result = await repo.recordTriggers(records, now, term);
  for (const event of result.events) {
    await bus.publish(topics.accountEvent, event).catch((error: unknown) => {
      // Consumers also scan the event log, so a lost announcement only delays delivery.
      log?.warn({ event: event.id, err: String(error) }, 'alerts: announcing an account event failed');
    });
  }
  return result;
}
