import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

/** The MCP server at /mcp, driven by the SDK's own client over Streamable HTTP against a loopback listener. */
describe('MCP over Streamable HTTP (/mcp)', () => {
  let t: TestApp;
  let base: string;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        MERIDIAN_DERIVATIVES_HISTORY_DAYS: '1',
        MERIDIAN_SIM_SEED: '7',
      },
    });
    // A simulated market with a day of bars, and one model refresh over it: forecasts to ask about.
    const market = t.container.market.service;
    await market.start();
    await market.windowsLoaded();
    market.tickNow();
    // The models' first fit over the working window (as a worker's start does): no forecasts before it.
    t.container.predictions.service.warmUp();
    await t.container.predictions.service.refresh();
    // Simulated perpetuals: a refresh of funding, open interest, basis and liquidations to ask about.
    await t.container.derivatives.service.start();
    await t.container.derivatives.service.backfilled();
    await t.container.derivatives.service.refresh();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    member = await t.user('member');
  });
  afterAll(async () => {
    await t.container.derivatives.service.stop();
    await t.container.market.service.stop();
    await t.close();
  });

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'meridian-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  }

  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

  it('lists the tools with JSON schemas taken from the REST routes', async () => {
    const client = await connect(member.token);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'get_market_data',
          'get_market_history',
          'list_onchain_flows',
          'get_forecast',
          'get_level_probabilities',
          'get_outlook',
          'list_alert_rules',
          'create_alert_rule',
          'pause_alert_rule',
          'get_portfolio',
          'get_analytics',
        ]),
      );
      const forecast = tools.find((tool) => tool.name === 'get_forecast')!;
      expect(forecast.inputSchema.required).toEqual(['symbol']);
      expect(Object.keys(forecast.inputSchema.properties ?? {})).toContain('horizon');
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['meridian://symbols', 'meridian://model-card']);
    } finally {
      await client.close();
    }
  });

  it("answers BTC's 1h forecast and its 80 % interval in one call, with provenance", async () => {
    const client = await connect(member.token);
    try {
      const result = (await client.callTool({
        name: 'get_forecast',
        arguments: { symbol: 'BTC', horizon: '1h' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as {
        result: { data: Array<{ symbol: string; quantiles: Record<string, number> }> };
        provenance: { source: string; stale: boolean; normalized: string | null };
      };
      expect(structured.provenance.source).toBeTruthy();
      expect(structured.provenance.normalized).toMatch(/symbol/);
      expect(structured.result.data).toHaveLength(1);
      const [point] = structured.result.data;
      expect(point!.symbol).toBe('BTCUSDT');
      const { p10, p90 } = point!.quantiles;
      expect(p10).toBeLessThan(p90!);
      // The one text line an agent reads: median, 80 % interval (p10–p90), confidence, time.
      expect(text(result)).toMatch(
        /^BTCUSDT 1h forecast [\d.]+ \(baseline [\d.]+, [+-][\d.]+ %\), 80 % interval [\d.]+ – [\d.]+ \(p10–p90\), confidence [\d.]+, generated \S+Z$/m,
      );
      expect(text(result)).toMatch(/source: /);
    } finally {
      await client.close();
    }
  });

  it('answers the probabilities of price levels in one call, from the newest forecast', async () => {
    const client = await connect(member.token);
    try {
      const forecast = (await client.callTool({
        name: 'get_forecast',
        arguments: { symbol: 'BTC', horizon: '1h' },
      })) as CallToolResult;
      const [point] = (forecast.structuredContent as { result: { data: Array<{ baseline: number }> } }).result
        .data;
      const levels = [point!.baseline * 0.99, point!.baseline * 1.01];
      const result = (await client.callTool({
        name: 'get_level_probabilities',
        arguments: { symbol: 'BTC', horizon: '1h', levels: levels.join(',') },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const body = (result.structuredContent as { result: { levels: Array<{ endAbove: number }> } }).result;
      expect(body.levels).toHaveLength(2);
      expect(body.levels[0]!.endAbove).toBeGreaterThan(body.levels[1]!.endAbove);
      expect(text(result)).toMatch(/^BTCUSDT 1h from the forecast generated \S+Z/);
      expect(text(result)).toMatch(/ends above [\d.]+ %, touched before the horizon [\d.]+ %/);
      const bad = (await client.callTool({
        name: 'get_level_probabilities',
        arguments: { symbol: 'BTC', levels: 'x' },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/levels/);
    } finally {
      await client.close();
    }
  });

  it('creates, lists and pauses an alert rule through the REST routes', async () => {
    const client = await connect(member.token);
    try {
      const created = (await client.callTool({
        name: 'create_alert_rule',
        arguments: {
          type: 'price',
          symbol: 'btc',
          name: 'BTC over 1M',
          condition: { op: 'above', value: 1_000_000 },
        },
      })) as CallToolResult;
      expect(created.isError, text(created)).toBeFalsy();
      const rule = (created.structuredContent as { result: { id: string; symbol: string } }).result;
      expect(rule.symbol).toBe('BTCUSDT');
      const paused = (await client.callTool({
        name: 'pause_alert_rule',
        arguments: { id: rule.id },
      })) as CallToolResult;
      expect(text(paused)).toContain('is paused');
      const listed = (await client.callTool({ name: 'list_alert_rules', arguments: {} })) as CallToolResult;
      expect(text(listed)).toContain(`${rule.id} paused price BTCUSDT`);
      // Same store as REST: the route sees the rule paused.
      const rest = await t.app.inject({ url: `/api/alerts/${rule.id}`, headers: member.auth });
      expect(rest.json().state).toBe('paused');
    } finally {
      await client.close();
    }
  });

  it('backtests a rule through the REST route, nothing saved, and summarizes the firings', async () => {
    const client = await connect(member.token);
    try {
      const result = (await client.callTool({
        name: 'backtest_alert_rule',
        arguments: { rule: { type: 'price', symbol: 'btc', condition: { op: 'above', value: 1 } }, days: 1 },
      })) as CallToolResult;
      expect(result.isError, text(result)).toBeFalsy();
      const body = (
        result.structuredContent as { result: { totals: { firings: number }; rule: { symbol: string } } }
      ).result;
      expect(body.rule.symbol).toBe('BTCUSDT');
      // A price above 1 holds all day: a once rule fires at the first minute, exactly once.
      expect(body.totals.firings).toBe(1);
      expect(text(result)).toMatch(/^Backtest .* → .*: 1 firings \(first .*\), from simulated data\.$/);
    } finally {
      await client.close();
    }
  });

  it('refuses a tool the token has no permission for, as REST does', async () => {
    const viewer = await t.user('viewer');
    const client = await connect(viewer.token);
    try {
      const result = (await client.callTool({
        name: 'create_alert_rule',
        arguments: { type: 'price', symbol: 'BTC', name: 'x', condition: { op: 'above', value: 1 } },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/^403 forbidden: .*alerts:write/);
    } finally {
      await client.close();
    }
  });

  it('answers the netflow series and the derivatives figures through their REST routes', async () => {
    const client = await connect(member.token);
    try {
      const netflow = (await client.callTool({
        name: 'get_onchain_netflow',
        arguments: { interval: '1h' },
      })) as CallToolResult;
      expect(netflow.isError, text(netflow)).toBeFalsy();
      // The default span is the last 7 days of hours: 168 buckets, 169 when now is not on the hour.
      const [, buckets] = /^all exchanges all assets all chains, (\d+) × 1h: in \$[\d,]+, out \$[\d,]+/.exec(
        text(netflow),
      )!;
      expect(Number(buckets)).toBeGreaterThanOrEqual(168);
      expect((netflow.structuredContent as { result: { data: unknown[] } }).result.data).toHaveLength(
        Number(buckets),
      );
      const derivatives = (await client.callTool({
        name: 'get_derivatives',
        arguments: { symbols: 'btc' },
      })) as CallToolResult;
      expect(derivatives.isError, text(derivatives)).toBeFalsy();
      expect(text(derivatives)).toMatch(/^BTCUSDT: (funding|funding: not published)/);
      const history = (await client.callTool({
        name: 'get_derivatives_history',
        arguments: { symbol: 'BTC', metric: 'nope' },
      })) as CallToolResult;
      expect(history.isError).toBe(true);
      expect(text(history)).toMatch(/^400 validation_failed/);
    } finally {
      await client.close();
    }
  });

  it('names the wrong argument: a bad value (route validation) and an unknown one', async () => {
    const client = await connect(member.token);
    try {
      const bad = (await client.callTool({
        name: 'get_market_history',
        arguments: { symbol: 'BTC', limit: 0 },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/^400 validation_failed/);
      expect(text(bad)).toMatch(/argument limit: /);
      const misspelt = (await client.callTool({
        name: 'get_forecast',
        arguments: { symbol: 'BTC', horizn: '1h' },
      })) as CallToolResult;
      expect(misspelt.isError).toBe(true);
      expect(text(misspelt)).toMatch(/argument horizn: unknown argument/);
    } finally {
      await client.close();
    }
  });

  it('charges each tool call to the account rate limit, and reports the 429', async () => {
    const user = await t.user('viewer');
    await t.container.accounts.setPlan(user.email, 'pro', 3);
    const client = await connect(user.token);
    try {
      const results: CallToolResult[] = [];
      for (let i = 0; i < 4; i++)
        results.push((await client.callTool({ name: 'get_outlook', arguments: {} })) as CallToolResult);
      // initialize and tools/list are not charged: exactly the 3 allowed calls succeed.
      expect(results.map((r) => Boolean(r.isError))).toEqual([false, false, false, true]);
      expect(text(results[3]!)).toMatch(/^429 rate_limited: .*\nretry after \d+ s$/);
    } finally {
      await client.close();
    }
  });

  it('answers 401 with a bearer challenge without a valid token; GET is 405', async () => {
    const none = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await expect(connect('mrd_not_a_real_token')).rejects.toThrow();
    const get = await fetch(`${base}/mcp`, { headers: { authorization: member.auth.authorization } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('reads the symbols and the model card resources', async () => {
    const client = await connect(member.token);
    try {
      const symbols = await client.readResource({ uri: 'meridian://symbols' });
      const list = JSON.parse((symbols.contents[0] as { text: string }).text).symbols as string[];
      expect(list).toContain('BTCUSDT');
      const card = await client.readResource({ uri: 'meridian://model-card' });
      expect((card.contents[0] as { text: string }).text).toMatch(/^# Forecasting/);
    } finally {
      await client.close();
    }
  });
});
