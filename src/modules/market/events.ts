/**
 * Normalized market events: what every source adapter (simulated, replay, ccxt) emits, per venue and
 * symbol, with the venue's time and our receive time (ms since the epoch). Prices in quote currency,
 * sizes in base currency, symbols canonical (`BTCUSDT`), venues lower-case ccxt ids (`binance`).
 */
export type Side = 'buy' | 'sell';

/** A price level: [price, size]. In a delta, size 0 removes the level. */
export type Level = [price: number, size: number];

interface EventBase {
  venue: string;
  symbol: string;
  exchangeTime: number;
  receiveTime: number;
}

export interface TradeEvent extends EventBase {
  kind: 'trade';
  price: number;
  size: number;
  /** The aggressor (taker) side: `buy` lifted an ask, `sell` hit a bid. */
  side: Side;
}

/** A full L2 book. Replaces whatever the consumer held; `sequence` starts the delta chain. */
export interface BookSnapshotEvent extends EventBase {
  kind: 'book_snapshot';
  sequence: number;
  /** Best first: bids descending, asks ascending. */
  bids: Level[];
  asks: Level[];
}

/** Changed levels since `sequence - 1`. A consumer seeing any other predecessor has a gap and must resync. */
export interface BookDeltaEvent extends EventBase {
  kind: 'book_delta';
  sequence: number;
  bids: Level[];
  asks: Level[];
}

/** Perpetual funding: the rate (fraction per funding period, 0.0001 = 0.01 %) and the prices around it. */
export interface FundingEvent extends EventBase {
  kind: 'funding';
  rate: number;
  markPrice?: number;
  indexPrice?: number;
  nextFundingTime?: number;
}

export type MarketEvent = TradeEvent | BookSnapshotEvent | BookDeltaEvent | FundingEvent;
