import type { Selectable } from 'kysely';
import type { RulePatch } from './repository.ts';
import { type AlertRule, type RuleState, storedWatch } from './rule.ts';
import type { AlertRulesTable } from './tables.ts';

/** An alert rule as its `alert_rules` row, and back; an edit as the columns it sets. */

export function fromRow(row: Selectable<AlertRulesTable>): AlertRule {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    ...storedWatch(row.type, row.symbol, row.condition),
    trigger: {
      mode: row.trigger_mode as AlertRule['trigger']['mode'],
      cooldownSec: Number(row.cooldown_sec),
    },
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    channels: JSON.parse(row.channels),
    template: row.template ?? null,
    cappedUntil:
      row.capped_until === null || row.capped_until === undefined ? null : Number(row.capped_until),
    normalized: JSON.parse(row.normalized),
    state: row.state as RuleState,
    version: Number(row.version),
    lastSatisfied: row.last_satisfied,
    lastEventAt: row.last_event_at === null ? null : Number(row.last_event_at),
    lastTriggeredAt: row.last_triggered_at === null ? null : Number(row.last_triggered_at),
    triggerCount: Number(row.trigger_count),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function toRow(rule: AlertRule): AlertRulesTable {
  return {
    id: rule.id,
    account_id: rule.accountId,
    name: rule.name,
    type: rule.type,
    symbol: rule.symbol,
    condition: JSON.stringify(rule.condition),
    trigger_mode: rule.trigger.mode,
    cooldown_sec: rule.trigger.cooldownSec,
    expires_at: rule.expiresAt,
    channels: JSON.stringify(rule.channels),
    template: rule.template ?? null,
    normalized: JSON.stringify(rule.normalized),
    state: rule.state,
    version: rule.version,
    last_satisfied: rule.lastSatisfied,
    last_event_at: rule.lastEventAt,
    last_triggered_at: rule.lastTriggeredAt,
    trigger_count: rule.triggerCount,
    created_at: rule.createdAt,
    updated_at: rule.updatedAt,
    deleted_at: null,
  };
}

export function patchColumns(patch: RulePatch): Partial<AlertRulesTable> {
  const out: Partial<AlertRulesTable> = {};
  if (patch.name !== undefined) out.name = patch.name;
  if (patch.symbol !== undefined) out.symbol = patch.symbol;
  if (patch.condition !== undefined) out.condition = JSON.stringify(patch.condition);
  if (patch.trigger !== undefined) {
    out.trigger_mode = patch.trigger.mode;
    out.cooldown_sec = patch.trigger.cooldownSec;
  }
  if (patch.expiresAt !== undefined) out.expires_at = patch.expiresAt;
  if (patch.channels !== undefined) out.channels = JSON.stringify(patch.channels);
  if (patch.template !== undefined) out.template = patch.template;
  if (patch.normalized !== undefined) out.normalized = JSON.stringify(patch.normalized);
  if (patch.state !== undefined) out.state = patch.state;
  if (patch.resetSide) out.last_satisfied = null;
  return out;
}
