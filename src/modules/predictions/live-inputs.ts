import type { PredictionsDerivativesPort, PredictionsMarketPort } from './ports.ts';
import type { LiveInputs } from './types.ts';

/**
 * The live inputs of one symbol's forecast now: the market snapshot's mid, book and trade-flow imbalance, and
 * funding and basis — from the derivatives module when there is one (a symbol without a perpetual then has
 * none, never the snapshot's), else from the snapshot.
 */
export function liveInputsOf(
  symbol: string,
  market: Pick<PredictionsMarketPort, 'snapshot'>,
  derivatives: Pick<PredictionsDerivativesPort, 'latest'> | undefined,
): LiveInputs {
  const snap = market.snapshot(symbol);
  const perp = derivatives
    ? derivatives.latest(symbol)
    : snap && { fundingRate: snap.fundingRate, basisBps: snap.basisBps, fundingIntervalHours: null };
  return {
    mid: snap?.mid ?? undefined,
    bookImbalance: snap?.bookImbalance ?? undefined,
    tradeFlowImbalance: snap?.tradeImbalance5m ?? undefined,
    fundingRate: perp?.fundingRate ?? undefined,
    basisBps: perp?.basisBps ?? undefined,
    fundingIntervalHours: perp?.fundingIntervalHours ?? undefined,
  };
}
