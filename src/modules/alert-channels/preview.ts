import { channelMessages } from './formats.ts';
import { renderTemplate, unknownVariables, valuesOf } from './template.ts';

export interface PreviewInput {
  /** The template being edited; absent: the rule type's default. */
  template?: string;
  ruleType?: string;
  rule?: { name?: string; symbol?: string; condition?: Record<string, unknown> };
  at: number;
  consoleUrl?: string;
}

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

/**
 * A template rendered for every channel as a firing of the rule being edited would render it: the event is
 * made up from the rule (a price rule fires at its own level, a flow rule at its minimum), then goes through
 * the same values and escaping as a real delivery.
 */
export function previewMessage(input: PreviewInput) {
  const rule = input.rule ?? {};
  const condition = rule.condition ?? {};
  const level = num(condition.value) ?? num(condition.minUsd);
  const time = new Date(input.at).toISOString();
  const body = JSON.stringify({
    id: 'evt_preview',
    timestamp: time,
    data: {
      rule: {
        id: 'alr_preview',
        name: rule.name ?? '',
        type: input.ruleType ?? 'price',
        symbol: rule.symbol,
        template: input.template ?? null,
        condition,
      },
      trigger: { value: level, eventAt: time },
      ...(input.ruleType === 'probability'
        ? {
            // A probability rule fires at its own threshold; its level is a price, not the value compared.
            prediction: { probability: level, level: num(condition.level), horizon: condition.horizon },
          }
        : { market: rule.symbol ? { symbol: rule.symbol, price: num(condition.value) } : undefined }),
      flow: { exchange: condition.exchange, asset: condition.asset, usdValue: num(condition.minUsd) },
    },
  });
  const { values, template } = valuesOf(body, input.consoleUrl);
  return {
    template,
    unknownVariables: input.template ? unknownVariables(input.template) : [],
    values,
    ...channelMessages(renderTemplate(template, values), values, false),
  };
}
