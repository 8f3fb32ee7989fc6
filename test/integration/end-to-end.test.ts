import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { type Client, connect } from '../push/client.ts';
import { waitFor } from '../harness/wait.ts';

/**
 * The whole path with no stand-ins: simulated market → predictions engine refresh → bus → push channel →
 * a real WebSocket client, and the same datapoints over REST.
 */
describe('end to end: market → predictions → REST and push', () => {
  let t: TestApp;
  let user: TestUser;
  let client: Client;

  beforeAll(async () => {
    t = await createTestApp({
      env: { MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT', MERIDIAN_MARKET_HISTORY_DAYS: '2' },
    });
    user = await t.user('viewer');
    await t.container.market.job.start();
    await t.container.market.service.windowsLoaded();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    client = await connect(`ws://127.0.0.1:${port}/predictions?symbol=eth-usd`, { headers: user.auth });
  }, 120_000);

  afterAll(async () => {
    client?.ws.terminate();
    await t.container.market.job.stop();
    await t.close();
  });

  it('a refresh reaches REST and the narrowed push stream in the documented shape', async () => {
    // The models' first fit over the working window, in slices as a worker's start does (the market and chain
    // jobs keep running meanwhile): no forecasts before it.
    await t.container.predictions.service.warmUpAndBackfill();
    const pushed = client.next((m) => Array.isArray(m?.data), 30_000);
    const rows = await t.container.predictions.service.refresh();
    // 15m and 1h: the 3-day working window is not enough for 6h's first fit, so 6h publishes nothing yet.
    expect(rows.map((r) => r.horizon).sort()).toEqual(['15m', '15m', '1h', '1h']);

    const message = await pushed;
    expect(message.data.map((d: { symbol: string }) => d.symbol)).toEqual(['ETHUSDT', 'ETHUSDT']);
    const keys = [
      'baseline',
      'confidence',
      'expectedMovePct',
      'factors',
      'generatedAt',
      'horizon',
      'prediction',
      'symbol',
    ];
    for (const point of message.data) {
      expect(Object.keys(point).sort()).toEqual(keys);
      expect(Object.keys(point.factors).sort()).toEqual(['ai_residual', 'funding', 'macro', 'orderflow']);
      expect(point.generatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }

    const rest = await t.app.inject({
      url: '/api/predictions?symbol=ETHUSDT&horizon=1h&limit=1',
      headers: user.auth,
    });
    expect(rest.statusCode).toBe(200);
    const latest = rest.json().data.at(-1);
    expect(latest).toEqual(message.data.find((d: { horizon: string }) => d.horizon === '1h'));
    const market = await t.app.inject({ url: '/api/market-data?symbols=ETHUSDT', headers: user.auth });
    // baseline = merged mid at generatedAt; the live price has moved a little since.
    expect(Math.abs(market.json().data[0].price - latest.baseline) / latest.baseline).toBeLessThan(0.005);
  }, 120_000);

  it('prices on-chain flows from the market engine (ETH at the merged price of its minute)', async () => {
    await t.container.onchain.job.start();
    try {
      type Flow = { asset: string; amount: string; usdValue: number | null; timestamp: number };
      const flows = await waitFor(
        async () => {
          const res = await t.app.inject({ url: '/api/onchain/flows?limit=500', headers: user.auth });
          const data: Flow[] = res.json().data;
          return data.some((f) => f.asset === 'ETH') ? data : undefined;
        },
        'an ETH flow',
        10_000,
        100,
      );
      const eth = flows.filter((f) => f.asset === 'ETH' || f.asset === 'WETH');
      expect(eth.length).toBeGreaterThan(0);
      const thisMinute = Math.floor(Date.now() / 60_000) * 60_000;
      let exact = 0;
      for (const f of eth) {
        const unit = (await t.container.market.service.usdPrice('ETH', f.timestamp))!;
        expect(unit).toBeGreaterThan(100);
        expect(f.usdValue).not.toBeNull();
        const expected = Number(f.amount) * unit;
        if (f.timestamp < thisMinute - 60_000) {
          // A closed minute: the same merged 1m price the indexer used, to the cent.
          expect(Math.abs((f.usdValue as number) - expected)).toBeLessThanOrEqual(0.01 + 1e-9 * expected);
          exact++;
        } else {
          // The minute still forming: priced live at indexing time, which has moved a little since.
          expect(Math.abs((f.usdValue as number) - expected) / expected).toBeLessThan(0.005);
        }
      }
      expect(exact).toBeGreaterThan(0);
    } finally {
      await t.container.onchain.job.stop();
    }
  });
});
