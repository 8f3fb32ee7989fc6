import { type AlertRule, effectiveState } from './rule.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A rule as the API shows it. */
export function presentRule(rule: AlertRule, nowMs: number) {
  return {
    ...ruleSummary(rule),
    expiresAt: iso(rule.expiresAt),
    state: effectiveState(rule, nowMs),
    cappedUntil: rule.cappedUntil && rule.cappedUntil > nowMs ? iso(rule.cappedUntil) : null,
    normalized: rule.normalized,
    createdAt: iso(rule.createdAt)!,
    updatedAt: iso(rule.updatedAt)!,
    lastTriggeredAt: iso(rule.lastTriggeredAt),
    triggerCount: rule.triggerCount,
  };
}

export type RuleView = ReturnType<typeof presentRule>;

/** The rule as an event's `data.rule` carries it: enough for a receiver to route and display the event. */
export function ruleSummary(rule: AlertRule) {
  return {
    id: rule.id,
    name: rule.name,
    type: rule.type,
    ...(rule.symbol !== null ? { symbol: rule.symbol } : {}),
    condition: rule.condition,
    trigger: rule.trigger,
    channels: { ...rule.channels, channelIds: rule.channels.channelIds ?? [] },
    template: rule.template ?? null,
  };
}

/** The `data` of an `alert.capped` event: the rule and until when its messages are recorded, not sent. */
export function cappedEventData(rule: AlertRule, until: number) {
  return {
    rule: ruleSummary(rule),
    cappedUntil: new Date(until).toISOString(),
    note: 'the rule reached its hourly message cap: its messages are recorded as capped (listed in its deliveries), not sent, until then; it keeps being evaluated',
  };
}
