import type { AlertRule, AlertState, AlertType, NewAlert } from '../api/types.ts';
import { formatPrice, formatUsd, shortHash } from './format.ts';

const opWords: Record<string, string> = {
  crosses_above: 'crosses above',
  crosses_below: 'crosses below',
  above: 'above',
  below: 'below',
};

/** A rule's condition in words: "BTCUSDT crosses above 100,000.00", "ETH in to binance ≥ $1.00M over 1h". */
export function describeCondition(rule: Pick<AlertRule, 'type' | 'symbol' | 'condition'>): string {
  const c = rule.condition as Record<string, string | number | undefined>;
  if (rule.type === 'price') {
    if (c.op === 'change_pct') {
      const value = Number(c.value);
      return `${rule.symbol} ${value < 0 ? 'falls' : 'rises'} ${Math.abs(value)} % within ${c.window}`;
    }
    return `${rule.symbol} ${opWords[String(c.op)] ?? c.op} ${formatPrice(Number(c.value))}`;
  }
  if (rule.type === 'volume')
    return `${rule.symbol} volume above ${formatUsd(Number(c.value))} in ${c.window}`;
  if (rule.type === 'funding')
    return `${rule.symbol} funding ${opWords[String(c.op)] ?? c.op} ${Number(c.value)} %/yr`;
  if (rule.type === 'open_interest')
    return `${rule.symbol} open interest ${c.op === 'above' ? 'change above' : 'change below'} ${Number(c.value)} % in ${c.window}`;
  if (rule.type === 'probability')
    return `${rule.symbol} ${c.kind === 'touch' ? 'touches' : 'ends above'} ${formatPrice(Number(c.level))} within ${c.horizon}: probability ${opWords[String(c.op)] ?? c.op} ${Math.round(Number(c.value) * 1000) / 10} %`;
  if (rule.type === 'liquidations')
    return `${rule.symbol} ${c.side === 'any' ? '' : `${c.side} `}liquidations above ${formatUsd(Number(c.value))} in ${c.window}`;
  const what = c.asset ? String(c.asset) : 'Any asset';
  const direction = c.direction === 'in' ? 'into' : c.direction === 'out' ? 'out of' : 'to or from';
  const where = [c.exchange, c.address ? shortHash(String(c.address)) : undefined]
    .filter(Boolean)
    .join(' / ');
  const size = `≥ ${formatUsd(Number(c.minUsd))}`;
  return `${what} ${direction} ${where || 'any exchange'} ${size}${c.window ? ` over ${c.window}` : ' per transfer'}`;
}

/** The form's values as the API's body: empty optional fields are left out, numbers parsed. */
export function ruleBody(
  type: Extract<AlertType, 'price' | 'volume' | 'address_flow'>,
  form: FormData,
): NewAlert {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const number = (name: string) => (text(name) === '' ? Number.NaN : Number(text(name)));
  const optional = (name: string) => (text(name) ? text(name) : undefined);
  const common = {
    ...(optional('name') ? { name: text('name') } : {}),
    trigger: {
      mode: text('mode') as 'once' | 'every',
      ...(text('cooldownSec') ? { cooldownSec: number('cooldownSec') } : {}),
    },
    ...(text('expiresAt') ? { expiresAt: new Date(text('expiresAt')).toISOString() } : {}),
    channels: {
      events: true,
      webhookIds: form.getAll('webhookIds').map(String),
      ...(form.getAll('channelIds').length ? { channelIds: form.getAll('channelIds').map(String) } : {}),
    },
    ...(optional('template') ? { template: text('template') } : {}),
  };
  if (type === 'price') {
    const op = text('op');
    return {
      ...common,
      type,
      symbol: text('symbol'),
      condition: {
        op,
        value: number('value'),
        ...(op === 'change_pct' ? { window: text('window') } : {}),
      },
    } as NewAlert;
  }
  if (type === 'volume')
    return {
      ...common,
      type,
      symbol: text('symbol'),
      condition: { op: 'above', value: number('value'), window: text('window') as '1h' },
    };
  return {
    ...common,
    type,
    condition: {
      direction: text('direction') as 'in',
      minUsd: number('minUsd'),
      ...(optional('exchange') ? { exchange: text('exchange') } : {}),
      ...(optional('asset') ? { asset: text('asset') } : {}),
      ...(optional('address') ? { address: text('address') } : {}),
      ...(optional('window') ? { window: text('window') as '1h' } : {}),
    },
  };
}

/**
 * The state change a rule's row offers: pause a live rule, resume a paused one. Triggered (a `once` rule that
 * fired) and expired are final: the API answers 409 to any change, so nothing is offered.
 */
export function stateAction(state: AlertState): 'pause' | 'resume' | undefined {
  if (state === 'active' || state === 'failing') return 'pause';
  if (state === 'paused') return 'resume';
  return undefined;
}
