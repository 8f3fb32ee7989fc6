import type { FlowEvent } from './ports.ts';
import type { FlowCondition } from './rule.ts';

/** The transfer: the flow id without its exchange side (both sides of an exchange-to-exchange move share it). */
export function transferOf(flow: FlowEvent): string {
  return flow.id.slice(0, flow.id.lastIndexOf(':'));
}

/** The targets a flow concerns, each with the direction it moves for that target. */
export function sidesOf(flow: FlowEvent): Array<[target: string, direction: 'in' | 'out']> {
  const sides: Array<[string, 'in' | 'out']> = [];
  if (flow.direction === 'deposit') sides.push([`x:${flow.exchange}`, 'in']);
  if (flow.direction === 'withdrawal') sides.push([`x:${flow.exchange}`, 'out']);
  if (typeof flow.to?.address === 'string') sides.push([`a:${flow.to.address.toLowerCase()}`, 'in']);
  if (typeof flow.from?.address === 'string') sides.push([`a:${flow.from.address.toLowerCase()}`, 'out']);
  return sides;
}

/** A flow rule's target: an exchange (`x:binance`) or an address (`a:0x…`). */
export function flowTarget(c: FlowCondition): string {
  return c.exchange ? `x:${c.exchange}` : `a:${c.address}`;
}

export function flowGroupKey(c: FlowCondition): string {
  return `${flowTarget(c)}|${c.direction}|${c.asset ?? '*'}`;
}
