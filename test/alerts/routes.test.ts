import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { createKyselyEventsRepository, type EventsTables } from '../../src/modules/events/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

const price = { type: 'price', symbol: 'BTCUSDT', condition: { op: 'crosses_above', value: 100_000 } };

describe.each(dbKinds())('alert rules through the real app on %s', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let viewer: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await createTestApp({
      db: kind,
      env: { MERIDIAN_ALERTS_ACTIVE_STANDARD: '3', MERIDIAN_ANALYTICS_CACHE_MS: '0' },
    });
    member = await t.user('member');
    viewer = await t.user('viewer');
    other = await t.user('member', { plan: 'pro' });
  });
  afterAll(async () => t?.close());

  const call = (method: string, url: string, who: TestUser, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: who.auth,
      ...(payload ? { payload: payload as object } : {}),
    });

  it('creates a rule: 201 with id, state, createdAt and the normalized symbol, saying what changed', async () => {
    const res = await call('POST', '/api/alerts', member, {
      type: 'price',
      symbol: 'btc',
      condition: { op: 'crosses_above', value: 100_000 },
      trigger: { mode: 'every', cooldownSec: 900 },
      expiresAt: '2099-12-31T00:00:00.000Z',
      name: 'BTC breaks 100k',
    });
    expect(res.statusCode).toBe(201);
    const rule = res.json() as Json;
    expect(rule.id).toMatch(/^alr_[A-Za-z0-9]{20}$/);
    expect(rule).toMatchObject({
      name: 'BTC breaks 100k',
      type: 'price',
      symbol: 'BTCUSDT',
      condition: { op: 'crosses_above', value: 100_000 },
      trigger: { mode: 'every', cooldownSec: 900 },
      expiresAt: '2099-12-31T00:00:00.000Z',
      channels: { webhookIds: [], events: true },
      state: 'active',
      normalized: [{ field: 'symbol', requested: 'btc', used: 'BTCUSDT' }],
      lastTriggeredAt: null,
      triggerCount: 0,
    });
    expect(Date.parse(rule.createdAt)).toBeGreaterThan(0);
    expect(res.headers['meridian-normalized']).toBe('symbol=btc->BTCUSDT');
    const again = await call('GET', `/api/alerts/${rule.id}`, member);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(rule);
  });

  it('applies defaults: trigger once, cooldown 300, a descriptive name; normalizes exchange aliases', async () => {
    const res = await call('POST', '/api/alerts', other, {
      type: 'address_flow',
      condition: { direction: 'in', exchange: 'OKEx', asset: 'usdt', minUsd: 1_000_000 },
    });
    expect(res.statusCode).toBe(201);
    const rule = res.json() as Json;
    expect(rule.trigger).toEqual({ mode: 'once', cooldownSec: 300 });
    expect(rule.condition).toEqual({ direction: 'in', exchange: 'okx', asset: 'USDT', minUsd: 1_000_000 });
    expect(rule.symbol).toBeUndefined();
    expect(rule.name).toContain('okx');
    expect(rule.normalized).toEqual([
      { field: 'condition.exchange', requested: 'OKEx', used: 'okx' },
      { field: 'condition.asset', requested: 'usdt', used: 'USDT' },
    ]);
  });

  it('lists every problem of an invalid body with JSON pointers, from the branch its type names', async () => {
    const res = await call('POST', '/api/alerts', member, {
      type: 'address_flow',
      condition: { direction: 'sideways', exchange: 'nowhere-exchange', minUsd: -5, window: '2h' },
      expiresAt: '2001-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json() as Json;
    expect(body.code).toBe('validation_failed');
    const pointers = body.errors.map((e: { pointer: string }) => e.pointer).sort();
    expect(pointers).toEqual([
      '/body/condition/direction',
      '/body/condition/exchange',
      '/body/condition/minUsd',
      '/body/condition/window',
      '/body/expiresAt',
    ]);
    expect(body.errors.find((e: Json) => e.pointer === '/body/condition/exchange').message).toMatch(
      /binance/,
    );

    const address = await call('POST', '/api/alerts', member, {
      type: 'address_flow',
      condition: { direction: 'out', address: '0x12345', minUsd: 10 },
    });
    expect(address.statusCode).toBe(400);
    expect((address.json() as Json).errors.map((e: Json) => e.pointer)).toEqual(['/body/condition/address']);

    const semantic = await call('POST', '/api/alerts', member, {
      type: 'price',
      symbol: 'NOPEUSDT',
      condition: { op: 'change_pct', value: 0 },
    });
    expect(semantic.statusCode).toBe(400);
    expect((semantic.json() as Json).errors.map((e: Json) => e.pointer).sort()).toEqual([
      '/body/condition/value',
      '/body/condition/window',
      '/body/symbol',
    ]);

    const noType = await call('POST', '/api/alerts', member, { symbol: 'BTCUSDT' });
    expect((noType.json() as Json).errors).toEqual([{ pointer: '/body/type', message: 'is required' }]);
    const badType = await call('POST', '/api/alerts', member, { type: 'weather', symbol: 'nope' });
    // The symbol can be checked on its own, so it is reported too.
    expect((badType.json() as Json).errors.map((e: Json) => e.pointer)).toEqual([
      '/body/type',
      '/body/symbol',
    ]);
    // One problem names the type, whatever the rest of the body holds.
    expect((badType.json() as Json).errors[0]).toEqual({
      pointer: '/body/type',
      message:
        'must be one of price, volume, address_flow, funding, open_interest, liquidations, probability',
    });
  });

  it('viewers read but cannot write (403); another account gets 404 for the rule, never 403', async () => {
    const created = (await call('POST', '/api/alerts', member, price)).json() as Json;
    expect((await call('POST', '/api/alerts', viewer, price)).statusCode).toBe(403);
    expect((await call('GET', '/api/alerts', viewer)).statusCode).toBe(200);
    expect((await call('PATCH', `/api/alerts/${created.id}`, viewer, { state: 'paused' })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/api/alerts/${created.id}`, viewer)).statusCode).toBe(403);
    expect((await call('POST', `/api/alerts/${created.id}/test`, viewer)).statusCode).toBe(403);
    for (const [method, url, body] of [
      ['GET', `/api/alerts/${created.id}`, undefined],
      ['PATCH', `/api/alerts/${created.id}`, { state: 'paused' }],
      ['DELETE', `/api/alerts/${created.id}`, undefined],
      ['POST', `/api/alerts/${created.id}/test`, undefined],
    ] as const) {
      const res = await call(method, url, other, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect((res.json() as Json).code).toBe('not_found');
    }
    const list = (await call('GET', '/api/alerts', other)).json() as Json;
    expect(list.data.map((r: Json) => r.id)).not.toContain(created.id);
    // Untouched by the other account's attempts.
    expect(((await call('GET', `/api/alerts/${created.id}`, member)).json() as Json).state).toBe('active');
  });

  it('pauses, resumes and edits; an edit of the condition is checked against the rule type', async () => {
    const created = (await call('POST', '/api/alerts', other, price)).json() as Json;
    const paused = await call('PATCH', `/api/alerts/${created.id}`, other, { state: 'paused' });
    expect(paused.statusCode).toBe(200);
    expect((paused.json() as Json).state).toBe('paused');
    const edited = await call('PATCH', `/api/alerts/${created.id}`, other, {
      state: 'active',
      symbol: 'eth-usd',
      condition: { op: 'below', value: 2_000 },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      state: 'active',
      symbol: 'ETHUSDT',
      condition: { op: 'below', value: 2_000 },
      normalized: [{ field: 'symbol', requested: 'eth-usd', used: 'ETHUSDT' }],
    });
    expect(edited.headers['meridian-normalized']).toBe('symbol=eth-usd->ETHUSDT');
    // A volume-shaped condition on a price rule, and a flow-shaped one: problems of the price shape.
    const wrong = await call('PATCH', `/api/alerts/${created.id}`, other, {
      condition: { op: 'above', value: 5, window: '1h' },
    });
    expect(wrong.statusCode).toBe(400);
    expect((wrong.json() as Json).errors).toEqual([
      { pointer: '/body/condition/window', message: 'is only accepted with op change_pct' },
    ]);
    const flowShape = await call('PATCH', `/api/alerts/${created.id}`, other, {
      condition: { direction: 'in', minUsd: 5 },
    });
    expect(flowShape.statusCode).toBe(400);
    expect((flowShape.json() as Json).errors.map((e: Json) => e.pointer).sort()).toEqual([
      '/body/condition/direction',
      '/body/condition/minUsd',
      '/body/condition/op',
      '/body/condition/value',
    ]);
    const empty = await call('PATCH', `/api/alerts/${created.id}`, other, {});
    expect(empty.statusCode).toBe(400);
  });

  it('lists newest first with a cursor and filters by state and type', async () => {
    const who = await t.user('member', { plan: 'pro' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', '/api/alerts', who, {
        ...price,
        type: i % 2 ? 'volume' : 'price',
        condition: i % 2 ? { op: 'above', value: 1e9, window: '1h' } : price.condition,
      });
      ids.push((res.json() as Json).id);
    }
    await call('PATCH', `/api/alerts/${ids[0]}`, who, { state: 'paused' });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/alerts?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await call('GET', url, who)).json() as Json;
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((r: Json) => r.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const volumes = (await call('GET', '/api/alerts?type=volume', who)).json() as Json;
    expect(volumes.data.map((r: Json) => r.id).sort()).toEqual([ids[1], ids[3]].sort());
    const paused = (await call('GET', '/api/alerts?state=paused', who)).json() as Json;
    expect(paused.data.map((r: Json) => r.id)).toEqual([ids[0]]);
    const bad = await call('GET', '/api/alerts?cursor=garbage', who);
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as Json).errors[0].pointer).toBe('/query/cursor');
    const clamped = await call('GET', '/api/alerts?limit=5000', who);
    expect((clamped.json() as Json).applied.limit).toBe(200);
  });

  it('enforces the per-plan cap on active rules (paused rules do not count; resuming does)', async () => {
    const who = await t.user('member');
    const made: string[] = [];
    for (let i = 0; i < 3; i++)
      made.push(((await call('POST', '/api/alerts', who, price)).json() as Json).id);
    const refused = await call('POST', '/api/alerts', who, price);
    expect(refused.statusCode).toBe(409);
    expect((refused.json() as Json).code).toBe('alert_limit_reached');
    expect((refused.json() as Json).limit).toBe(3);
    expect((await call('PATCH', `/api/alerts/${made[0]}`, who, { state: 'paused' })).statusCode).toBe(200);
    expect((await call('POST', '/api/alerts', who, price)).statusCode).toBe(201);
    const resume = await call('PATCH', `/api/alerts/${made[0]}`, who, { state: 'active' });
    expect(resume.statusCode).toBe(409);
    expect((await call('DELETE', `/api/alerts/${made[1]}`, who)).statusCode).toBe(204);
    expect((await call('GET', `/api/alerts/${made[1]}`, who)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/alerts/${made[0]}`, who, { state: 'active' })).statusCode).toBe(200);
  });

  it('test-fires through the event log and the bus: a test: true event naming the rule', async () => {
    const created = (await call('POST', '/api/alerts', other, price)).json() as Json;
    const announced: Json[] = [];
    const stop = await t.container.bus.subscribe(topics.accountEvent, (e) => announced.push(e));
    const res = await call('POST', `/api/alerts/${created.id}/test`, other);
    await stop();
    expect(res.statusCode).toBe(202);
    const { eventId, triggerId } = res.json() as Json;
    const events = createKyselyEventsRepository(tablesOf<EventsTables>(t.container.db.db));
    const stored = await events.findForAccount(other.id, eventId);
    expect(stored?.test).toBe(true);
    expect(stored?.type).toBe('alert.triggered');
    const body = JSON.parse(stored!.body);
    expect(body).toMatchObject({ id: eventId, type: 'alert.triggered', version: 1, test: true });
    expect(body.data.rule).toMatchObject({ id: created.id, type: 'price', symbol: 'BTCUSDT' });
    expect(body.data.trigger).toMatchObject({ id: triggerId, test: true });
    expect(announced.map((e) => e.id)).toEqual([eventId]);
    // A test does not count as a firing.
    expect(((await call('GET', `/api/alerts/${created.id}`, other)).json() as Json).triggerCount).toBe(0);
  });

  it('documents every route and both event bodies in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
    expect(Object.keys(doc.paths['/api/alerts']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/alerts/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(doc.paths['/api/alerts/{id}/test'])).toEqual(['post']);
    const schemas = JSON.stringify(doc.components?.schemas ?? {});
    expect(schemas).toContain('AlertTriggeredEvent');
    expect(schemas).toContain('OnchainFlowEvent');
  });

  it('feeds the dashboard: rules per state and the latest triggers, each account its own', async () => {
    const owner = await t.user('member');
    const paused = (
      await call('POST', '/api/alerts', owner, { ...price, name: 'paused one' })
    ).json() as Json;
    await call('PATCH', `/api/alerts/${paused.id}`, owner, { state: 'paused' });
    const live = (await call('POST', '/api/alerts', owner, { ...price, name: 'live one' })).json() as Json;
    const fired = await call('POST', `/api/alerts/${live.id}/test`, owner);
    expect(fired.statusCode).toBeLessThan(300);
    const body = (await call('GET', '/api/dashboard/analytics', owner)).json() as Json;
    expect(body.alerts.byState).toEqual({
      active: 1,
      paused: 1,
      triggered: 0,
      expired: 0,
      failing: 0,
      capped: 0,
    });
    expect(body.alerts.recentTriggers).toHaveLength(1);
    expect(body.alerts.recentTriggers[0]).toMatchObject({
      ruleId: live.id,
      ruleName: 'live one',
      type: 'price',
      test: true,
    });
    const stranger = (await call('GET', '/api/dashboard/analytics', await t.user('member'))).json() as Json;
    expect(stranger.alerts.recentTriggers).toEqual([]);
  });

  it('derivatives rules: created on a symbol with perpetuals; a bad condition names its field', async () => {
    const someone = await t.user('member');
    const created = await call('POST', '/api/alerts', someone, {
      type: 'open_interest',
      symbol: 'eth',
      condition: { op: 'below', value: -10, window: '4h' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      type: 'open_interest',
      symbol: 'ETHUSDT',
      condition: { op: 'below', value: -10, window: '4h' },
      name: 'ETHUSDT open interest 4h change below -10 %',
    });
    const pointers = async (body: object) => {
      const res = await call('POST', '/api/alerts', someone, body);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      return (res.json() as Json).errors.map((e: Json) => e.pointer).sort();
    };
    expect(
      await pointers({
        type: 'open_interest',
        symbol: 'BTCUSDT',
        condition: { op: 'above', value: 5, window: '5m' },
      }),
    ).toEqual(['/body/condition/window']);
    expect(
      await pointers({
        type: 'liquidations',
        symbol: 'BTCUSDT',
        condition: { op: 'above', value: 0, window: '1h' },
      }),
    ).toEqual(['/body/condition/side', '/body/condition/value']);
    expect(
      await pointers({ type: 'funding', symbol: 'NOPEUSDT', condition: { op: 'crosses_above', value: 10 } }),
    ).toEqual(['/body/condition/op', '/body/symbol']);
  });
});
