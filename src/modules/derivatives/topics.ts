import { isRecord, type TopicDecoders, topics } from '../../shared/bus.ts';
import type { DerivativesView, LiquidationView } from './present.ts';

/**
 * What the derivatives job publishes after each refresh: every symbol's view, the liquidations seen since the
 * previous one, the source and its time. API replicas adopt it; the `/market` push channel forwards it.
 */
export interface DerivativesUpdate {
  at: number;
  source: string;
  simulated: boolean;
  items: DerivativesView[];
  liquidations: LiquidationView[];
}

export interface DerivativesTopics {
  [topics.derivativesUpdate]: DerivativesUpdate;
}

export const derivativesTopicDecoders: TopicDecoders<DerivativesTopics> = {
  [topics.derivativesUpdate]: (raw) => {
    if (!isRecord(raw) || typeof raw.at !== 'number' || typeof raw.source !== 'string') return undefined;
    if (typeof raw.simulated !== 'boolean' || !Array.isArray(raw.items) || !Array.isArray(raw.liquidations))
      return undefined;
    if (!raw.items.every((i) => isRecord(i) && typeof i.symbol === 'string')) return undefined;
    if (!raw.liquidations.every((l) => isRecord(l) && typeof l.symbol === 'string')) return undefined;
    return raw as unknown as DerivativesUpdate;
  },
};
