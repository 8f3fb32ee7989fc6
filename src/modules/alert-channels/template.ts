/**
 * Message templates: `{{variable}}` placeholders filled from the event a message is about. A template is plain
 * text; each channel escapes the rendered text for its medium (escape.ts), so nothing in a template or a value
 * becomes markup.
 */

export const TEMPLATE_VARIABLES = [
  'symbol',
  'price',
  'condition',
  'value',
  'exchange',
  'asset',
  'amount_usd',
  'time',
  'rule_name',
  'console_url',
  'probability',
  'level',
  'horizon',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

export const MAX_TEMPLATE_LENGTH = 1_000;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholders of a template that name no variable (empty when every one is known). */
export function unknownVariables(template: string): string[] {
  const known = new Set<string>(TEMPLATE_VARIABLES);
  const unknown = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) if (!known.has(match[1]!)) unknown.add(match[1]!);
  return [...unknown];
}

/** The message a rule of this type sends when it has no template of its own. */
export function defaultTemplate(ruleType: string): string {
  if (ruleType === 'address_flow')
    return '{{rule_name}}: {{amount_usd}} USD of {{asset}} at {{exchange}} ({{condition}}) at {{time}} {{console_url}}';
  if (ruleType === 'funding' || ruleType === 'open_interest' || ruleType === 'liquidations')
    return '{{rule_name}}: {{symbol}} {{condition}}, now {{value}}, at {{time}} {{console_url}}';
  if (ruleType === 'probability')
    return '{{rule_name}}: {{symbol}} {{condition}}, now {{probability}}, at {{time}} {{console_url}}';
  if (ruleType === 'volume')
    return '{{rule_name}}: {{symbol}} quote volume {{value}} ({{condition}}), price {{price}}, at {{time}} {{console_url}}';
  return '{{rule_name}}: {{symbol}} {{condition}}, price {{price}}, at {{time}} {{console_url}}';
}

export type TemplateValues = Record<TemplateVariable, string>;

interface EventBody {
  id?: string;
  timestamp?: string;
  test?: boolean;
  data?: {
    rule?: {
      id?: string;
      name?: string;
      type?: string;
      symbol?: string;
      template?: string | null;
      condition?: Record<string, unknown>;
    };
    trigger?: { value?: unknown; eventAt?: string; firedAt?: string };
    market?: { symbol?: string; price?: unknown };
    flow?: { exchange?: string; asset?: string; usdValue?: unknown };
    window?: { sumUsd?: unknown };
    prediction?: { probability?: unknown; level?: unknown; horizon?: unknown };
  };
}

const text = (x: unknown) => (typeof x === 'number' || typeof x === 'string' ? String(x) : '');
/** A probability (0–1) as a percent with at most one decimal: 0.3412 → `34.1 %`. */
const percent = (x: unknown) =>
  typeof x === 'number' && Number.isFinite(x) ? `${Math.round(x * 1000) / 10} %` : '';

function conditionText(condition: Record<string, unknown> | undefined): string {
  if (!condition) return '';
  if ('direction' in condition) {
    const where = text(condition.exchange) || text(condition.address);
    const window = condition.window ? ` in ${text(condition.window)}` : '';
    return `${text(condition.direction)} ${where} >= ${text(condition.minUsd)} USD${window}`.replace(
      /\s+/g,
      ' ',
    );
  }
  if ('kind' in condition) {
    const what = condition.kind === 'touch' ? 'touches' : 'ends above';
    return `${what} ${text(condition.level)} within ${text(condition.horizon)}: probability ${text(condition.op)} ${percent(condition.value)}`;
  }
  const window = condition.window ? ` over ${text(condition.window)}` : '';
  if ('side' in condition)
    return `${text(condition.side)} liquidations above ${text(condition.value)} USD${window}`;
  return `${text(condition.op).replace('_', ' ')} ${text(condition.value)}${window}`;
}

/** The variables' values for an event body as stored (the same bytes a webhook receives). */
export function valuesOf(
  body: string,
  consoleUrl: string | undefined,
): {
  values: TemplateValues;
  template: string;
  ruleType: string;
  test: boolean;
} {
  const event = JSON.parse(body) as EventBody;
  const data = event.data ?? {};
  const rule = data.rule ?? {};
  const flow = data.flow ?? {};
  const prediction = data.prediction ?? {};
  const values: TemplateValues = {
    symbol: text(rule.symbol ?? data.market?.symbol),
    price: text(data.market?.price),
    condition: conditionText(rule.condition),
    value: text(data.trigger?.value),
    exchange: text(flow.exchange ?? rule.condition?.exchange),
    asset: text(flow.asset ?? rule.condition?.asset),
    amount_usd: text(data.window?.sumUsd ?? flow.usdValue),
    time: text(data.trigger?.eventAt ?? data.trigger?.firedAt ?? event.timestamp),
    rule_name: text(rule.name),
    console_url: consoleUrl && rule.id ? `${consoleUrl.replace(/\/+$/, '')}/alerts?rule=${rule.id}` : '',
    probability: percent(prediction.probability),
    level: text(prediction.level ?? rule.condition?.level),
    horizon: text(prediction.horizon ?? rule.condition?.horizon),
  };
  const ruleType = rule.type ?? 'price';
  return {
    values,
    template: rule.template || defaultTemplate(ruleType),
    ruleType,
    test: event.test === true,
  };
}

/** Fills the placeholders (an unknown one renders empty: it was refused at save time). Plain text out. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template
    .replace(PLACEHOLDER, (_, name: string) => (values as Record<string, string>)[name] ?? '')
    .replace(/[ \t]+$/gm, '')
    .trim();
}
