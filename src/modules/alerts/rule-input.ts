import type { Clock } from '../../shared/clock.ts';
import { type ProblemDetail, validationError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { TEMPLATE_VARIABLES, unknownVariables } from '../alert-channels/index.ts';
import type { RulePatch } from './repository.ts';
import {
  type AlertRule,
  DEFAULT_COOLDOWN_SEC,
  defaultRuleName,
  type FlowCondition,
  type FundingCondition,
  isDerivativesRuleType,
  type LiquidationsCondition,
  type Normalized,
  type OpenInterestCondition,
  type PriceCondition,
  type ProbabilityCondition,
  type RuleChannels,
  type RuleTrigger,
  type TriggerMode,
  type VolumeCondition,
} from './rule.ts';
import { type createRuleChecks, type TypedCondition, watchOf } from './rule-checks.ts';

interface RuleInputFields {
  trigger?: { mode?: TriggerMode; cooldownSec?: number };
  expiresAt?: string | null;
  name?: string;
  channels?: { webhookIds?: string[]; channelIds?: string[]; events?: boolean };
  /** The message template of channel messages; null or empty: the default of the rule's type. */
  template?: string | null;
}

/** A rule as the client sends it, its shape checked by the route's schema. */
export type RuleInput = RuleInputFields &
  (
    | { type: 'price'; symbol: string; condition: PriceCondition }
    | { type: 'volume'; symbol: string; condition: VolumeCondition }
    | { type: 'address_flow'; condition: FlowCondition }
    | { type: 'funding'; symbol: string; condition: FundingCondition }
    | { type: 'open_interest'; symbol: string; condition: OpenInterestCondition }
    | { type: 'liquidations'; symbol: string; condition: LiquidationsCondition }
    | { type: 'probability'; symbol: string; condition: ProbabilityCondition }
  );

export interface RulePatchInput extends RuleInputFields {
  state?: 'active' | 'paused';
  symbol?: string;
  /** Checked by the route against the shape of the rule's own type. */
  condition?: TypedCondition;
}

/**
 * A client's rule input made a rule or an edit: checked (one 400 naming every problem, with the checks of
 * rule-checks.ts) and normalized, not stored.
 */
export function createRuleDrafts(checks: ReturnType<typeof createRuleChecks>, clock: Clock) {
  const triggerOf = (input: RuleInput['trigger'], base?: RuleTrigger): RuleTrigger => ({
    mode: input?.mode ?? base?.mode ?? 'once',
    cooldownSec: input?.cooldownSec ?? base?.cooldownSec ?? DEFAULT_COOLDOWN_SEC,
  });
  const channelsOf = (input: RuleInput['channels'], base?: RuleChannels): RuleChannels => ({
    webhookIds: input?.webhookIds ?? base?.webhookIds ?? [],
    channelIds: input?.channelIds ?? base?.channelIds ?? [],
    events: input?.events ?? base?.events ?? true,
  });

  /** A template naming a variable that does not exist is refused, the variable named. */
  function checkTemplate(template: string | null | undefined, problems: ProblemDetail[]) {
    for (const name of template ? unknownVariables(template) : [])
      problems.push({
        pointer: '/body/template',
        message: `{{${name}}} is not a template variable (known: ${TEMPLATE_VARIABLES.join(', ')})`,
      });
  }

  /** A new rule from a client's input, checked (400 naming every problem) and normalized; not stored. */
  function draftRule(accountId: string, input: RuleInput): AlertRule {
    const problems: ProblemDetail[] = [];
    const normalized: Normalized[] = [];
    const symbol = input.type === 'address_flow' ? null : checks.symbol(input.symbol, problems, normalized);
    if (symbol !== null && isDerivativesRuleType(input.type))
      checks.derivativesCoverage(input.type, symbol, problems);
    const typed = checks.condition(input, problems, normalized);
    const expiresAt = checks.expiry(input.expiresAt, problems);
    checkTemplate(input.template, problems);
    if (problems.length) throw validationError(problems);
    const now = clock.now();
    const watch = watchOf(typed, symbol);
    return {
      id: newId('alr'),
      accountId,
      name: input.name?.trim() || defaultRuleName(watch),
      ...watch,
      trigger: triggerOf(input.trigger),
      expiresAt,
      channels: channelsOf(input.channels),
      template: input.template || null,
      normalized,
      state: 'active',
      version: 1,
      lastSatisfied: null,
      lastEventAt: null,
      lastTriggeredAt: null,
      triggerCount: 0,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** The edit a client's input makes to `current`, checked against its type (400 naming every problem). */
  function patchOf(current: AlertRule, input: RulePatchInput): RulePatch {
    const problems: ProblemDetail[] = [];
    const normalized: Normalized[] = [];
    const patch: RulePatch = {};
    if (input.symbol !== undefined) {
      if (current.type === 'address_flow')
        problems.push({ pointer: '/body/symbol', message: 'is not used by address_flow rules' });
      else {
        const symbol = checks.symbol(input.symbol, problems, normalized);
        if (symbol !== null && isDerivativesRuleType(current.type))
          checks.derivativesCoverage(current.type, symbol, problems);
        if (symbol !== null) patch.symbol = symbol;
      }
    }
    if (input.condition !== undefined) {
      if (input.condition.type !== current.type)
        problems.push({ pointer: '/body/condition', message: `must be a ${current.type} condition` });
      else patch.condition = checks.condition(input.condition, problems, normalized).condition;
    }
    if (input.expiresAt !== undefined) patch.expiresAt = checks.expiry(input.expiresAt, problems);
    checkTemplate(input.template, problems);
    if (input.template !== undefined) patch.template = input.template || null;
    if (problems.length) throw validationError(problems);
    if (input.name !== undefined) patch.name = input.name.trim() || current.name;
    if (input.trigger !== undefined) patch.trigger = triggerOf(input.trigger, current.trigger);
    if (input.channels !== undefined) patch.channels = channelsOf(input.channels, current.channels);
    if (input.state !== undefined && input.state !== current.state) patch.state = input.state;
    const watched = patch.symbol !== undefined || patch.condition !== undefined;
    if (watched) {
      patch.resetSide = true;
      // What was normalized now replaces the notes of the fields it concerns.
      const touched = new Set(normalized.map((n) => n.field));
      if (patch.symbol !== undefined) touched.add('symbol');
      if (patch.condition !== undefined)
        for (const f of ['condition.exchange', 'condition.address', 'condition.asset']) touched.add(f);
      patch.normalized = [...current.normalized.filter((n) => !touched.has(n.field)), ...normalized];
    }
    return patch;
  }

  return { draftRule, patchOf };
}
