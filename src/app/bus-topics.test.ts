import { describe, expect, it } from 'vitest';
import { topics } from '../shared/bus.ts';
import { type Topics, topicDecoders } from './bus-topics.ts';

/** What each producer publishes (the shapes of app/market.ts, the indexer, the refresh job, alerts, accounts). */
const examples: { [T in keyof Topics]: Topics[T] } = {
  [topics.tokenRevoked]: { hash: 'a'.repeat(64) },
  [topics.marketSnapshot]: {
    symbols: ['BTCUSDT'],
    at: 1_767_000_000_000,
    body: '{"data":[]}',
    term: 3,
    books: { BTCUSDT: { mid: 100_000.5, dp: 1, bids: [1_000_000, 0.5, -10, 2], asks: [1_000_010, 1] } },
    open: { BTCUSDT: { '1m': [1_767_000_000_000, 1, 2, 0.5, 1.5, 10, 15] } },
  },
  [topics.marketCandle]: {
    symbol: 'BTCUSDT',
    venue: 'merged',
    interval: '1m',
    candle: { openTime: 1, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10, quoteVolume: 15 },
  },
  [topics.onchainFlow]: {
    id: 'ethereum:0xt:1:binance',
    chain: 'ethereum',
    txHash: '0xt',
    logIndex: 1,
    kind: 'token',
    blockNumber: 10,
    blockHash: '0xb',
    time: '2026-01-01T00:00:00.000Z',
    timestamp: 1_767_225_600_000,
    exchange: 'binance',
    direction: 'deposit',
    asset: 'USDT',
    tokenAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7',
    amount: '1.5',
    usdValue: null,
    from: { address: '0x1', exchange: null, label: null },
    to: { address: '0x2', exchange: 'binance', label: 'Binance 14' },
    labelVersion: 'v1',
  },
  [topics.derivativesUpdate]: {
    at: 1_767_000_000_000,
    source: 'simulated',
    simulated: true,
    items: [
      {
        symbol: 'BTCUSDT',
        funding: {
          rate: 0.0001,
          annualizedPct: 10.95,
          predictedRate: null,
          nextFundingTime: '2026-01-01T08:00:00.000Z',
          intervalHours: 8,
        },
        openInterest: { contracts: 10, usd: 1_000_000, change24hPct: null },
        basis: null,
        liquidations: null,
        venues: [],
        stale: false,
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    ],
    liquidations: [
      {
        venue: 'binance',
        symbol: 'BTCUSDT',
        side: 'long',
        price: 1,
        size: 2,
        usd: 2,
        time: '2026-01-01T00:00:00.000Z',
      },
    ],
  },
  [topics.onchainFlowsRemoved]: { chain: 'ethereum', ancestor: 9, ids: ['ethereum:0xt:1:binance'] },
  [topics.predictionsRefreshed]: [
    {
      symbol: 'BTCUSDT',
      horizon: '1h',
      prediction: 101,
      baseline: 100,
      expectedMovePct: 1,
      confidence: 0.6,
      factors: { orderflow: 0.4, funding: 0.1, macro: 0.2, ai_residual: 0.3 },
      generatedAt: '2026-01-01T00:00:00.000Z',
    },
  ],
  [topics.accountEvent]: {
    seq: 7,
    id: 'evt_1',
    accountId: 'usr_1',
    type: 'alert.triggered',
    body: '{}',
    test: false,
    createdAt: 1,
  },
  [topics.alertRuleChanged]: { id: 'alr_1' },
  [topics.workerHeartbeat]: { sentAt: 1_767_225_600_000, pid: 4242, host: 'worker-1' },
};

const names = Object.values(topics);
const decode = (topic: keyof Topics, value: unknown) =>
  topicDecoders[topic](JSON.parse(JSON.stringify(value)));

describe('bus topic decoders (app/bus-topics.ts)', () => {
  it('give back every payload a producer publishes, after a JSON round trip', () => {
    for (const topic of names) expect(decode(topic, examples[topic]), topic).toEqual(examples[topic]);
    expect(decode(topics.tokenRevoked, { userId: 'usr_1' })).toEqual({ userId: 'usr_1' });
  });

  it('refuse what is not a payload of the topic', () => {
    for (const topic of names) {
      for (const wrong of [null, 'text', 42, [], {}]) {
        // An empty refresh is a refresh (of nothing); every other topic refuses all of these.
        if (topic === topics.predictionsRefreshed && Array.isArray(wrong)) continue;
        expect(topicDecoders[topic](wrong), `${topic} ${JSON.stringify(wrong)}`).toBeUndefined();
      }
    }
    expect(decode(topics.marketSnapshot, { ...examples[topics.marketSnapshot], at: '1' })).toBeUndefined();
    expect(decode(topics.marketCandle, { ...examples[topics.marketCandle], interval: '2m' })).toBeUndefined();
    expect(decode(topics.onchainFlow, { ...examples[topics.onchainFlow], direction: 'up' })).toBeUndefined();
    expect(decode(topics.accountEvent, { ...examples[topics.accountEvent], type: 'other' })).toBeUndefined();
    expect(decode(topics.tokenRevoked, { hash: 1 })).toBeUndefined();
  });

  it('leave out a malformed entry and keep the rest (books, bars, datapoints, ids)', () => {
    const snapshot = examples[topics.marketSnapshot];
    expect(
      decode(topics.marketSnapshot, {
        ...snapshot,
        books: { ...snapshot.books, ETHUSDT: { mid: 1, bids: 'x', asks: [] } },
        open: { BTCUSDT: { ...snapshot.open.BTCUSDT, '5m': [1, 2] } },
      }),
    ).toEqual(snapshot);
    const [point] = examples[topics.predictionsRefreshed];
    expect(decode(topics.predictionsRefreshed, [point, { nope: 1 }, { ...point, horizon: '4h' }])).toEqual([
      point,
    ]);
    expect(decode(topics.onchainFlowsRemoved, { chain: 'ethereum', ancestor: 9, ids: ['a', 3] })).toEqual({
      chain: 'ethereum',
      ancestor: 9,
      ids: ['a'],
    });
  });
});
