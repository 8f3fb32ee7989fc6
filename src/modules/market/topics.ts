import { isRecord, type TopicDecoders, topics } from '../../shared/bus.ts';
import { CANDLE_INTERVALS, type CandleInterval } from './candles.ts';
import { decodeMarketSnapshotMessage, type MarketSnapshotMessage } from './follower.ts';
import type { CandleClosed } from './types.ts';

/**
 * The market's bus topics (published by the market job, app/market.ts): a snapshot at most once a second,
 * and every merged closed candle.
 */
export interface MarketTopics {
  [topics.marketSnapshot]: MarketSnapshotMessage;
  [topics.marketCandle]: CandleClosed;
}

const isInterval = (x: unknown): x is CandleInterval =>
  typeof x === 'string' && (CANDLE_INTERVALS as readonly string[]).includes(x);
export const marketTopicDecoders: TopicDecoders<MarketTopics> = {
  [topics.marketSnapshot]: decodeMarketSnapshotMessage,
  [topics.marketCandle]: (raw) => {
    if (!isRecord(raw) || typeof raw.symbol !== 'string' || typeof raw.venue !== 'string') return undefined;
    const { interval, candle } = raw;
    if (!isInterval(interval) || !isRecord(candle)) return undefined;
    const { openTime, open, high, low, close, volume, quoteVolume } = candle;
    if (typeof openTime !== 'number' || typeof open !== 'number' || typeof high !== 'number')
      return undefined;
    if (typeof low !== 'number' || typeof close !== 'number') return undefined;
    if (typeof volume !== 'number' || typeof quoteVolume !== 'number') return undefined;
    return {
      symbol: raw.symbol,
      venue: raw.venue,
      interval,
      candle: { openTime, open, high, low, close, volume, quoteVolume },
    };
  },
};
