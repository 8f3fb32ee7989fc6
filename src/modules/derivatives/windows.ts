import type { Liquidation } from './types.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

export const minuteOf = (t: number): number => t - (t % MINUTE);

/**
 * A symbol's rolling memory: open interest (USD) per minute for the last 25 hours, for its 24 h change, and
 * liquidations per minute for the last 24 hours, for the 1 h and 24 h sums.
 */
export class SymbolWindows {
  private readonly oi = new Map<number, number>();
  private readonly liquidations = new Map<number, { longUsd: number; shortUsd: number }>();

  noteOpenInterest(time: number, usd: number): void {
    this.oi.set(minuteOf(time), usd);
  }

  /** Adds a liquidation to its minute; returns that minute's totals (what is stored for it). */
  noteLiquidation(l: Liquidation): { minute: number; longUsd: number; shortUsd: number } {
    const minute = minuteOf(l.time);
    const bucket = this.liquidations.get(minute) ?? { longUsd: 0, shortUsd: 0 };
    if (l.side === 'long') bucket.longUsd += l.usd;
    else bucket.shortUsd += l.usd;
    this.liquidations.set(minute, bucket);
    return { minute, ...bucket };
  }

  /** A stored minute of liquidations (at start, from storage). */
  loadLiquidations(minute: number, longUsd: number, shortUsd: number): void {
    this.liquidations.set(minute, { longUsd, shortUsd });
  }

  /** Percent change of open interest against the newest minute at least 24 h old (within an hour of it). */
  change24hPct(now: number, usd: number): number | null {
    const target = minuteOf(now - DAY);
    for (let t = target; t > target - HOUR; t -= MINUTE) {
      const then = this.oi.get(t);
      if (then !== undefined && then > 0) return (usd / then - 1) * 100;
    }
    return null;
  }

  liquidationSums(now: number) {
    const h1 = { longUsd: 0, shortUsd: 0 };
    const h24 = { longUsd: 0, shortUsd: 0 };
    for (const [minute, b] of this.liquidations) {
      if (minute > now || now - minute >= DAY) continue;
      h24.longUsd += b.longUsd;
      h24.shortUsd += b.shortUsd;
      if (now - minute < HOUR) {
        h1.longUsd += b.longUsd;
        h1.shortUsd += b.shortUsd;
      }
    }
    return { h1, h24 };
  }

  /** Minutes held per window: bounded by `prune` at 25 h of open interest and 24 h of liquidations. */
  size(): { openInterest: number; liquidations: number } {
    return { openInterest: this.oi.size, liquidations: this.liquidations.size };
  }

  /** Forgets what has left both windows. */
  prune(now: number): void {
    for (const t of this.oi.keys()) if (now - t > DAY + HOUR) this.oi.delete(t);
    for (const t of this.liquidations.keys()) if (now - t >= DAY) this.liquidations.delete(t);
  }
}
