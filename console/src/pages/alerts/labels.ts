import type { AlertState, AlertType } from '../../api/types.ts';

export const states: AlertState[] = ['active', 'paused', 'triggered', 'expired', 'failing'];
/** The types the console's form creates; derivatives rules are made through the API, SDK or MCP tools. */
export const types = ['price', 'volume', 'address_flow'] as const satisfies readonly AlertType[];
export type FormRuleType = (typeof types)[number];
export const allTypes: AlertType[] = [...types, 'funding', 'open_interest', 'liquidations'];
export const typeLabel: Record<AlertType, string> = {
  price: 'Price',
  volume: 'Volume',
  address_flow: 'Address flow',
  funding: 'Funding',
  open_interest: 'Open interest',
  liquidations: 'Liquidations',
};
export const stateTone: Record<AlertState, string> = {
  active: 'ok',
  paused: 'muted',
  triggered: 'in',
  expired: 'muted',
  failing: 'out',
  capped: 'warn',
};
