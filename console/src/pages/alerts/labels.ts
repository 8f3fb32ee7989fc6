import type { AlertState, AlertType } from '../../api/types.ts';

export const states: AlertState[] = ['active', 'paused', 'triggered', 'expired', 'failing'];
export const types: AlertType[] = ['price', 'volume', 'address_flow'];
export const typeLabel: Record<AlertType, string> = {
  price: 'Price',
  volume: 'Volume',
  address_flow: 'Address flow',
};
export const stateTone: Record<AlertState, string> = {
  active: 'ok',
  paused: 'muted',
  triggered: 'in',
  expired: 'muted',
  failing: 'out',
  capped: 'warn',
};
