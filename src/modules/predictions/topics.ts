import { isRecord, type TopicDecoders, topics } from '../../shared/bus.ts';
import { isHorizon } from '../identifiers/index.ts';
import type { PredictionDatapoint } from './present.ts';
import { FACTORS } from './types.ts';

/** `predictions.refreshed`: the datapoints of one refresh (published by the refresh job, after storing). */
export interface PredictionsTopics {
  [topics.predictionsRefreshed]: PredictionDatapoint[];
}

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

function isDatapoint(x: unknown): x is PredictionDatapoint {
  if (!isRecord(x) || typeof x.symbol !== 'string' || typeof x.generatedAt !== 'string') return false;
  if (typeof x.horizon !== 'string' || !isHorizon(x.horizon)) return false;
  if (!finite(x.prediction) || !finite(x.baseline) || !finite(x.expectedMovePct) || !finite(x.confidence))
    return false;
  const factors = x.factors;
  return isRecord(factors) && FACTORS.every((f) => finite(factors[f]));
}

export const predictionsTopicDecoders: TopicDecoders<PredictionsTopics> = {
  // A datapoint that is not well-formed is left out; the others of the refresh are kept.
  [topics.predictionsRefreshed]: (raw) => (Array.isArray(raw) ? raw.filter(isDatapoint) : undefined),
};
