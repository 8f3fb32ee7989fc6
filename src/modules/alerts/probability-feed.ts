import type { Horizon } from '../identifiers/index.ts';
import type { SeriesUpdate } from './flow-windows.ts';
import type { ProbabilityEvent } from './ports.ts';
import { PROBABILITY_KINDS } from './rule.ts';
import { probabilityKey, probabilityPrefix, type RuleIndex } from './rule-index.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Turns each published forecast datapoint of a symbol at a horizon into the probability series of the levels
 * rules watch: each level's end-above and touch probability of that datapoint, compared on that datapoint.
 */
export class ProbabilityFeed {
  constructor(private readonly deps: { index: RuleIndex; update: SeriesUpdate }) {}

  /** The price levels watched on the symbol at the horizon (distinct; empty when no rule watches it). */
  levels(symbol: string, horizon: Horizon): number[] {
    const prefix = probabilityPrefix(symbol, horizon);
    const out = new Set<number>();
    for (const [key, s] of this.deps.index.series) {
      if (!key.startsWith(prefix) || !s.index.size) continue;
      out.add(Number(key.slice(key.indexOf(':', prefix.length) + 1)));
    }
    return [...out];
  }

  onUpdate(p: ProbabilityEvent): void {
    const { index, update } = this.deps;
    const key = `q:${p.symbol}:${p.horizon}@${p.at}`;
    for (const level of p.levels) {
      for (const kind of PROBABILITY_KINDS) {
        const s = index.series.get(probabilityKey(p.symbol, p.horizon, kind, level.level));
        if (!s?.index.size) continue;
        const probability = kind === 'touch' ? level.touch : level.endAbove;
        if (!Number.isFinite(probability)) continue;
        update(s, probability, {
          key,
          at: p.at,
          value: probability,
          detail: () => ({
            prediction: {
              symbol: p.symbol,
              horizon: p.horizon,
              level: level.level,
              kind,
              probability,
              generatedAt: iso(p.at),
              baseline: p.baseline,
              prediction: p.prediction,
            },
          }),
        });
      }
    }
  }
}
