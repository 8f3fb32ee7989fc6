import { flowTarget, sidesOf, transferOf } from './flow-sides.ts';
import type { FlowEvent } from './ports.ts';
import { type Occasion, round } from './occasion.ts';
import type { Series } from './rule-index.ts';
import { type FlowCondition, type RuleWindow, WINDOW_MS } from './rule.ts';

/** A new value of a series, with the event that set it. */
export type SeriesUpdate = (series: Series, value: number, occasion: Occasion) => void;

/** A windowed sum of matching flows: one series per (target, direction, asset, window). */
export interface FlowGroup {
  readonly series: Series;
  readonly target: string;
  readonly direction: FlowCondition['direction'];
  readonly asset: string | undefined;
  readonly windowMs: number;
  readonly window: RuleWindow;
  flows: Array<{ time: number; usd: number; transfer: string }>;
  transfers: Set<string>;
  sum: number;
}

/**
 * The windowed flow sums that windowed address_flow rules compare with `minUsd`: each flow is counted once per
 * transfer, leaves its windows as time passes (`decay`), and goes when a reorg removes it.
 */
export class FlowWindows {
  private readonly groups = new Map<string, FlowGroup>();
  private readonly byTarget = new Map<string, Set<FlowGroup>>();

  constructor(private readonly update: SeriesUpdate) {}

  /** The group behind a windowed flow rule's series; returns it only when it is new (to be backfilled). */
  ensure(c: FlowCondition, window: RuleWindow, series: Series): FlowGroup | undefined {
    if (this.groups.has(series.key)) return undefined;
    const group: FlowGroup = {
      series,
      target: flowTarget(c),
      direction: c.direction,
      asset: c.asset,
      windowMs: WINDOW_MS[window],
      window,
      flows: [],
      transfers: new Set(),
      sum: 0,
    };
    this.groups.set(series.key, group);
    const set = this.byTarget.get(group.target) ?? new Set();
    set.add(group);
    this.byTarget.set(group.target, set);
    return group;
  }

  /** Merges the stored flows of a group's window with the flows that arrived meanwhile; true if any were new. */
  mergeStored(group: FlowGroup, list: FlowEvent[], now: number): boolean {
    const added: Array<{ time: number; usd: number; transfer: string; flow: FlowEvent }> = [];
    for (const flow of list) {
      const usd = flow.usdValue;
      if (typeof usd !== 'number' || !Number.isFinite(usd) || flow.timestamp <= now - group.windowMs)
        continue;
      if (group.asset && group.asset !== flow.asset.toUpperCase()) continue;
      const transfer = transferOf(flow);
      if (group.transfers.has(transfer)) continue;
      const side = sidesOf(flow).find(
        ([target, direction]) =>
          target === group.target && (group.direction === 'any' || group.direction === direction),
      );
      if (!side) continue;
      group.transfers.add(transfer);
      added.push({ time: flow.timestamp, usd, transfer, flow });
    }
    if (added.length === 0) return false;
    group.flows = [...group.flows, ...added].sort((a, b) => a.time - b.time);
    group.sum = group.flows.reduce((sum, f) => sum + f.usd, 0);
    const newest = added.reduce((a, b) => (b.time > a.time ? b : a));
    const window = { window: group.window, sumUsd: round(group.sum, 2), flows: group.flows.length };
    this.update(group.series, group.sum, {
      key: `flow:${newest.flow.id}`,
      at: newest.time,
      value: group.sum,
      flowId: newest.flow.id,
      detail: () => ({ window, flow: newest.flow }),
    });
    return true;
  }

  /** Counts a flow of `usd` into the windows of `target` that match its direction and asset. */
  add(flow: FlowEvent, target: string, direction: 'in' | 'out', usd: number, now: number): void {
    const transfer = transferOf(flow);
    const asset = flow.asset.toUpperCase();
    for (const group of this.byTarget.get(target) ?? []) {
      if (group.direction !== 'any' && group.direction !== direction) continue;
      if (group.asset && group.asset !== asset) continue;
      this.decay(group, now);
      if (group.transfers.has(transfer) || flow.timestamp <= now - group.windowMs) continue;
      group.transfers.add(transfer);
      group.flows.push({ time: flow.timestamp, usd, transfer });
      group.sum += usd;
      const window = { window: group.window, sumUsd: round(group.sum, 2), flows: group.flows.length };
      this.update(group.series, group.sum, {
        key: `flow:${flow.id}`,
        at: flow.timestamp,
        value: group.sum,
        flowId: flow.id,
        detail: () => ({ window, flow }),
      });
    }
  }

  /** Drops the flows that left every window by `now`. */
  decayAll(now: number): void {
    for (const group of this.groups.values()) this.decay(group, now);
  }

  /** Takes the flows a reorg removed out of every window. */
  remove(ids: string[], now: number): void {
    const gone = new Set(ids);
    for (const group of this.groups.values()) {
      // Flow ids end with the exchange side; transfers shared by both sides are matched by the transfer key.
      const before = group.flows.length;
      group.flows = group.flows.filter((f) => ![...gone].some((id) => id.startsWith(`${f.transfer}:`)));
      if (group.flows.length === before) continue;
      group.transfers = new Set(group.flows.map((f) => f.transfer));
      group.sum = group.flows.reduce((a, f) => a + f.usd, 0);
      const base = group.series.occasion ?? {
        key: `${group.series.key}@${now}`,
        at: now,
        value: 0,
        detail: () => ({}),
      };
      this.update(group.series, group.sum, { ...base, value: group.sum });
    }
  }

  private decay(group: FlowGroup, now: number): void {
    let dropped = false;
    while (group.flows.length && group.flows[0]!.time <= now - group.windowMs) {
      const f = group.flows.shift()!;
      group.sum -= f.usd;
      group.transfers.delete(f.transfer);
      dropped = true;
    }
    if (!dropped) return;
    if (group.flows.length === 0) group.sum = 0;
    const occasion = { key: `${group.series.key}@${now}`, at: now, value: group.sum, detail: () => ({}) };
    this.update(
      group.series,
      group.sum,
      group.series.occasion ? { ...group.series.occasion, value: group.sum } : occasion,
    );
  }
}
