import type { AlertState, AlertType } from '../../api/types.ts';

export const states: AlertState[] = ['active', 'paused', 'triggered', 'expired', 'failing'];
/** The types the console's form creates; derivatives and probability rules are made through the API, SDK or MCP. */
export const types = ['price', 'volume', 'address_flow'] as const satisfies readonly AlertType[];
export type FormRuleType = (typeof types)[number];
export const allTypes: AlertType[] = [...types, 'funding', 'open_interest', 'liquidations', 'probability'];
export const typeLabel: Record<AlertType, string> = {
  price: 'Price',
  volume: 'Volume',
  address_flow: 'Address flow',
  funding: 'Funding',
  open_interest: 'Open interest',
  liquidations: 'Liquidations',
  probability: 'Probability',
};
export const stateTone: Record<AlertState, string> = {
  active: 'ok',
  paused: 'muted',
  triggered: 'in',
  expired: 'muted',
  failing: 'out',
  capped: 'warn',
};
