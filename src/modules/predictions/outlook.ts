import { driverReason } from './drivers.ts';
import type { MarketFacts } from './facts.ts';
import { factorShares } from './forecast-row.ts';
import { MODEL_VERSION } from './models/engine.ts';
import { presentGaps } from './present.ts';
import type { PredictionGap, PredictionRow } from './repository.ts';
import { HORIZONS } from '../identifiers/index.ts';
import { FACTORS, type Factor } from './types.ts';

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const biasOf = (score: number) => (score > 0.01 ? 'bullish' : score < -0.01 ? 'bearish' : 'neutral');
const signedPct = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(2)} %`;

/**
 * The outlook of one symbol (or of all, `undefined`) from the newest refresh's rows: a bias and score per
 * horizon and overall, the 80 % interval, a sentence saying what that means, and the factors behind it.
 * A bias is bullish or bearish only from datapoints whose direction passed its evidence test
 * (`direction_earned`); elsewhere it is neutral and the interval width is the message.
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
  const horizons: Record<string, HorizonView> = {};
  const contributions: Record<Factor, number> = { orderflow: 0, funding: 0, macro: 0, ai_residual: 0 };
  let score = 0;
  let conf = 0;
  for (const h of HORIZONS) {
    const hr = rows.filter((r) => r.horizon === h);
    if (!hr.length) continue;
    const view = horizonView(hr, symbol === undefined);
    horizons[h] = view;
    score += view.score / HORIZONS.length;
    conf += view.confidence / HORIZONS.length;
    for (const r of hr)
      if (r.direction_earned)
        for (const f of FACTORS) contributions[f] += (r.factors[f] ?? 0) * Math.abs(r.expected_move_pct);
  }
  const shares = factorShares(contributions);
  const facts = factsOf(rows);
  const drivers = FACTORS.map((f) => {
    const direction = shares[f] > 0 ? 'bullish' : shares[f] < 0 ? 'bearish' : 'neutral';
    return {
      factor: f,
      direction,
      weight: round(Math.abs(shares[f])),
      reason: driverReason(f, facts, direction, from.fundingKnown(symbol)),
    };
  }).sort((a, b) => b.weight - a.weight);
  const bias = biasOf(score);
  return {
    symbol: symbol ?? null,
    bias,
    score: round(Math.max(-1, Math.min(1, score))),
    confidence: round(conf),
    message: overallMessage(bias, horizons),
    horizons,
    drivers,
    modelVersion: MODEL_VERSION,
    generatedAt: new Date(from.generatedAt()).toISOString(),
    gaps: presentGaps(from.gaps),
  };
}

interface HorizonView {
  bias: 'bullish' | 'bearish' | 'neutral';
  score: number;
  expectedMovePct: number;
  confidence: number;
  /** Whether the direction of (any of) the datapoints summarized passed its evidence test. */
  directionEarned: boolean;
  /** The 80 % interval (p10…p90) as % moves from the baseline (mean over symbols when market-wide). */
  interval80Pct: { low: number; high: number };
  message: string;
}

function horizonView(hr: readonly PredictionRow[], marketWide: boolean): HorizonView {
  const mean = (f: (r: PredictionRow) => number) => hr.reduce((s, r) => s + f(r), 0) / hr.length;
  const edge = mean((r) => (r.direction_earned ? directionalEdge(r) : 0));
  const bias = biasOf(edge);
  const move = mean((r) => r.expected_move_pct);
  const c = mean((r) => r.confidence);
  const pct = (key: string) => mean((r) => 100 * ((r.quantiles[key] ?? r.baseline) / r.baseline - 1));
  const low = pct('p10');
  const high = pct('p90');
  const range = `80 % of outcomes ${marketWide ? 'are expected, on average over symbols, ' : 'are expected '}within ${signedPct(low)} … ${signedPct(high)}`;
  const message =
    bias === 'neutral'
      ? `No direction earned: ${range} (${(high - low).toFixed(2)} % wide).`
      : `${bias === 'bullish' ? 'Up' : 'Down'} ${signedPct(move)} expected with confidence ${Math.round(100 * c)} %, a direction the model's record has earned; ${range}.`;
  return {
    bias,
    score: round(edge),
    expectedMovePct: round(move),
    confidence: round(c),
    directionEarned: hr.some((r) => r.direction_earned),
    interval80Pct: { low: round(low), high: round(high) },
    message,
  };
}

function overallMessage(bias: string, horizons: Record<string, HorizonView>): string {
  const entries = Object.entries(horizons);
  if (!entries.length) return 'No forecast yet.';
  const earned = entries.filter(([, v]) => v.bias !== 'neutral').map(([h, v]) => `${v.bias} at ${h}`);
  const [h, v] = entries.find(([k]) => k === '1h') ?? entries[0]!;
  const width = `${h}: 80 % within ${signedPct(v.interval80Pct.low)} … ${signedPct(v.interval80Pct.high)}`;
  if (bias === 'neutral')
    return earned.length
      ? `Neutral overall (${earned.join(', ')} do not add up to a side); ${width}.`
      : `Neutral: no direction earned at any horizon; ${width}.`;
  return `${bias === 'bullish' ? 'Bullish' : 'Bearish'} where the record earns it (${earned.join(', ')}); ${width}.`;
}

/** The facts the driver sentences quote: the symbol's, or the mean over symbols (market-wide). */
function factsOf(rows: readonly PredictionRow[]): MarketFacts {
  const perSymbol = new Map<string, MarketFacts>();
  for (const r of rows) if (!perSymbol.has(r.symbol)) perSymbol.set(r.symbol, r.facts ?? {});
  const list = [...perSymbol.values()];
  if (list.length <= 1) return list[0] ?? {};
  const out: Record<string, number> = {};
  const keys = new Set(list.flatMap((f) => Object.keys(f)));
  for (const k of keys) {
    const values = list
      .map((f) => (f as Record<string, number | undefined>)[k])
      .filter((x) => x !== undefined);
    out[k] = values.reduce((s, x) => s + x, 0) / values.length;
  }
  if (out.volDays !== undefined) out.volDays = Math.round(out.volDays * 10) / 10;
  if (out.basketSymbols !== undefined) out.basketSymbols = Math.round(out.basketSymbols);
  return out as MarketFacts;
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
