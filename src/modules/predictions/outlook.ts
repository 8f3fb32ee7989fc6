import { factorShares } from './forecast-row.ts';
import { MODEL_VERSION } from './models/engine.ts';
import { presentGaps } from './present.ts';
import type { PredictionGap, PredictionRow } from './repository.ts';
import { HORIZONS } from '../identifiers/index.ts';
import { FACTORS, type Factor } from './types.ts';

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const biasOf = (score: number) => (score > 0.01 ? 'bullish' : score < -0.01 ? 'bearish' : 'neutral');

/**
 * The outlook of one symbol (or of all, `undefined`) from the newest refresh's rows: a bias and score per
 * horizon and overall, and the factors that drive it, each with a sentence saying why.
 */
export function outlookOf(
  symbol: string | undefined,
  from: {
    /** The newest refresh's rows (every symbol). */
    latest: readonly PredictionRow[];
    gaps: readonly PredictionGap[];
    /** When the newest refresh happened. */
    generatedAt: () => number;
    /** Whether funding reaches the model (undefined: not known in this process). */
    fundingKnown: (symbol: string | undefined) => boolean | undefined;
  },
): Record<string, unknown> {
  const rows = from.latest.filter((r) => symbol === undefined || r.symbol === symbol);
  const horizons: Record<string, unknown> = {};
  const contributions: Record<Factor, number> = { orderflow: 0, funding: 0, macro: 0, ai_residual: 0 };
  let score = 0;
  let conf = 0;
  for (const h of HORIZONS) {
    const hr = rows.filter((r) => r.horizon === h);
    if (!hr.length) continue;
    const edge = hr.reduce((s, r) => s + directionalEdge(r), 0) / hr.length;
    const move = hr.reduce((s, r) => s + r.expected_move_pct, 0) / hr.length;
    const c = hr.reduce((s, r) => s + r.confidence, 0) / hr.length;
    horizons[h] = {
      bias: biasOf(edge),
      score: round(edge),
      expectedMovePct: round(move),
      confidence: round(c),
    };
    score += edge / HORIZONS.length;
    conf += c / HORIZONS.length;
    for (const r of hr)
      for (const f of FACTORS) contributions[f] += (r.factors[f] ?? 0) * Math.abs(r.expected_move_pct);
  }
  const shares = factorShares(contributions);
  const drivers = FACTORS.map((f) => ({
    factor: f,
    direction: shares[f] > 0 ? 'bullish' : shares[f] < 0 ? 'bearish' : 'neutral',
    weight: round(Math.abs(shares[f])),
    reason: reasonOf(f, shares[f], from.fundingKnown(symbol)),
  })).sort((a, b) => b.weight - a.weight);
  return {
    symbol: symbol ?? null,
    bias: biasOf(score),
    score: round(Math.max(-1, Math.min(1, score))),
    confidence: round(conf),
    horizons,
    drivers,
    modelVersion: MODEL_VERSION,
    generatedAt: new Date(from.generatedAt()).toISOString(),
    gaps: presentGaps(from.gaps),
  };
}

/**
 * A datapoint's contribution to the outlook score: the calibrated edge over a coin flip (2·confidence − 1),
 * signed by the predicted direction — and 0 when confidence is at or below 0.5. Below 0.5 the track record
 * says calls of this size land on the predicted side less often than not; turning that into the opposite bias
 * would show "bullish" next to a negative expected move, so the outlook says "no edge" instead.
 */
export function directionalEdge(r: { prediction: number; baseline: number; confidence: number }): number {
  const edge = Math.max(0, 2 * r.confidence - 1);
  return edge === 0 ? 0 : Math.sign(r.prediction - r.baseline) * edge;
}

function reasonOf(f: Factor, share: number, fundingKnown: boolean | undefined): string {
  const dir = share > 0 ? 'up' : share < 0 ? 'down' : 'nowhere in particular';
  switch (f) {
    case 'orderflow':
      return `Order-book and trade-flow imbalance point ${dir}.`;
    case 'funding':
      if (share !== 0) return `Funding rate and basis lean ${dir}.`;
      if (fundingKnown === false) return 'No funding data: this market source has no perpetual funding feed.';
      if (fundingKnown === true)
        return 'Funding rate and basis reach the model but carry no signal it has earned at these horizons.';
      return 'No funding signal at these horizons (no perpetual funding from the source, or none the model has earned).';
    case 'macro':
      return `Market-wide momentum, volatility regime and time of day lean ${dir}.`;
    case 'ai_residual':
      return `The learned residual model adjusts the others ${dir}.`;
  }
}
