/**
 * Alert tables. `condition`, `channels` and `normalized` are JSON text (the same on PGlite and PostgreSQL).
 * Columns written by the evaluator (`last_satisfied`, `last_event_at`, `last_triggered_at`, `trigger_count`,
 * `state` → triggered / expired) never change `version`; user edits bump it, which tells the evaluator its
 * copy is stale.
 */
export interface AlertRulesTable {
  id: string;
  account_id: string;
  name: string;
  type: string;
  symbol: string | null;
  condition: string;
  trigger_mode: string;
  cooldown_sec: number;
  expires_at: number | null;
  channels: string;
  template?: string | null;
  capped_until?: number | null;
  normalized: string;
  state: string;
  version: number;
  /** Crossing rules: whether the condition held at the last evaluation (the "side" of the threshold). */
  last_satisfied: boolean | null;
  /** Event time of the last trigger (the cooldown's reference). */
  last_event_at: number | null;
  last_triggered_at: number | null;
  trigger_count: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/** One row per firing (and per reorg retraction and test); (rule_id, event_key) is unique. */
export interface AlertTriggersTable {
  id: string;
  rule_id: string;
  account_id: string;
  event_key: string;
  kind: string;
  event_id: string;
  flow_id: string | null;
  value: number | null;
  event_at: number;
  fired_at: number;
}

export interface AlertsTables {
  alert_rules: AlertRulesTable;
  alert_triggers: AlertTriggersTable;
}
