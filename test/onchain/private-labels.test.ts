import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { createKyselyEventsRepository, type EventsTables } from '../../src/modules/events/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

const FUND = '0x1111111111111111111111111111111111111111';
const WATCHED = '0x2222222222222222222222222222222222222222';
const HOT = '0x28c6c06298d514db089934071355e5743bf21d60';

describe.each(dbKinds())('private labels through the real app on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    t = await createTestApp({
      db: kind,
      env: { MERIDIAN_PRIVATE_LABELS_MAX: '3', MERIDIAN_CHAIN_BACKFILL_BLOCKS: '30' },
    });
    alice = await t.user('member');
    bob = await t.user('member');
    viewer = await t.user('viewer');
  });
  afterAll(async () => {
    await t?.container.alerts.evaluator.stop();
    await t?.close();
  });

  const call = (method: string, url: string, who: TestUser, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: who.auth,
      ...(payload ? { payload: payload as object } : {}),
    });

  it('adds, replaces, pages and deletes an account’s labels; another account sees none of them', async () => {
    const created = await call('POST', '/api/labels', alice, {
      kind: 'fund',
      chain: 'Ethereum',
      address: FUND.replace('0x11', '0xAA').replace('0xAA', '0x11'),
      name: ' Acme Capital ',
    });
    expect(created.statusCode).toBe(201);
    const label = created.json() as Json;
    expect(label).toMatchObject({ kind: 'fund', chain: 'ethereum', address: FUND, name: 'Acme Capital' });
    expect(label.id).toMatch(/^lbl_/);

    // The same chain and address again: the label is replaced, keeping its id.
    const replaced = await call('POST', '/api/labels', alice, {
      kind: 'fund',
      chain: 'ethereum',
      address: FUND.toUpperCase().replace('0X', '0x'),
      name: 'Acme Capital II',
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ id: label.id, name: 'Acme Capital II' });

    expect(
      (
        await call('POST', '/api/labels', alice, {
          kind: 'wallet',
          chain: 'ethereum',
          address: WATCHED,
          name: 'Whale',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await call('POST', '/api/labels', alice, {
          kind: 'exchange',
          chain: 'bsc',
          address: HOT,
          name: 'My Binance',
        })
      ).statusCode,
    ).toBe(201);

    const first = (await call('GET', '/api/labels?limit=2', alice)).json() as Json;
    expect(first.data.map((l: Json) => l.name)).toEqual(['My Binance', 'Whale']);
    const second = (
      await call('GET', `/api/labels?limit=2&cursor=${first.nextCursor}`, alice)
    ).json() as Json;
    expect(second).toEqual({ data: [expect.objectContaining({ id: label.id })], nextCursor: null });
    expect((await call('GET', '/api/labels?kind=wallet', alice)).json().data).toHaveLength(1);
    expect((await call('GET', '/api/labels?chain=bsc', alice)).json().data).toHaveLength(1);

    // Bob: none of Alice's labels, and no way to delete one.
    expect((await call('GET', '/api/labels', bob)).json()).toEqual({ data: [], nextCursor: null });
    expect((await call('DELETE', `/api/labels/${label.id}`, bob)).statusCode).toBe(404);

    // The cap (3 here): a fourth label is refused, a replacement still goes through.
    const over = await call('POST', '/api/labels', alice, {
      kind: 'wallet',
      chain: 'ethereum',
      address: HOT,
      name: 'x',
    });
    expect(over.statusCode).toBe(409);
    expect(over.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(over.json()).toMatchObject({ code: 'label_limit_reached', limit: 3 });

    const gone = await call('DELETE', `/api/labels/${second.data[0].id}`, alice);
    expect(gone.statusCode).toBe(204);
    expect((await call('GET', '/api/labels', alice)).json().data).toHaveLength(2);
  });

  it('GET /api/onchain/exchanges lists the exchanges and chains the address book covers, with its sources', async () => {
    const res = await call('GET', '/api/onchain/exchanges', viewer);
    expect(res.statusCode).toBe(200);
    const body = res.json() as Json;
    expect(body.data.map((e: Json) => e.exchange)).toEqual(['binance', 'coinbase', 'kraken', 'okx']);
    expect(body.data[0]).toMatchObject({
      known: true,
      chains: [{ chain: 'ethereum', addresses: body.data[0].addresses }],
    });
    expect(body.chains).toEqual([{ chain: 'ethereum', addresses: body.labels.addresses, exchanges: 4 }]);
    expect(body.labels.sources).toEqual([
      {
        file: 'default-labels.json',
        version: '2025.1',
        labels: body.labels.addresses,
        ignored: 0,
        problems: 0,
      },
    ]);
    expect(body.labels.version).toBe(t.container.onchain.book.version);
  });

  it('answers bad input with problem+json naming each field; viewers may read but not write', async () => {
    const res = await call('POST', '/api/labels', alice, {
      kind: 'friend',
      chain: 'eth!',
      address: '0x12',
      name: '',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const pointers = (res.json() as Json).errors.map((e: Json) => e.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining(['/body/kind', '/body/chain', '/body/address', '/body/name']),
    );
    const cursor = await call('GET', '/api/labels?cursor=nonsense', alice);
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().errors).toEqual([expect.objectContaining({ pointer: '/query/cursor' })]);
    expect((await call('GET', '/api/labels', viewer)).statusCode).toBe(200);
    const denied = await call('POST', '/api/labels', viewer, {
      kind: 'fund',
      chain: 'ethereum',
      address: FUND,
      name: 'x',
    });
    expect(denied.statusCode).toBe(403);
  });

  it('shows an account’s label on the flows it concerns, to that account only', async () => {
    while ((await t.container.onchain.indexer.step()).kind !== 'idle') {}
    const flows = (await call('GET', '/api/onchain/flows?limit=20', alice)).json() as Json;
    expect(flows.data.length).toBeGreaterThan(0);
    const party = flows.data[0].from.address as string;
    const saved = await call('POST', '/api/labels', bob, {
      kind: 'wallet',
      chain: 'ethereum',
      address: party,
      name: 'Bob’s watch',
    });
    expect(saved.statusCode).toBe(201);
    const asBob = (await call('GET', '/api/onchain/flows?limit=20', bob)).json() as Json;
    const labelled = asBob.data.filter((f: Json) => f.from.address === party);
    expect(labelled.length).toBeGreaterThan(0);
    for (const f of labelled)
      expect(f.from.privateLabel).toEqual({ id: saved.json().id, kind: 'wallet', name: 'Bob’s watch' });
    const asAlice = (await call('GET', '/api/onchain/flows?limit=20', alice)).json() as Json;
    for (const f of asAlice.data) expect(f.from.privateLabel?.name).not.toBe('Bob’s watch');
  });

  it('an address_flow rule can target the account’s own label; its firing reaches that account alone', async () => {
    const own = (await call('GET', '/api/labels?kind=wallet', alice)).json().data[0] as Json;
    expect(own.address).toBe(WATCHED);
    // Bob cannot aim a rule at Alice's label.
    const stolen = await call('POST', '/api/alerts', bob, {
      type: 'address_flow',
      condition: { direction: 'in', label: own.id, minUsd: 1000 },
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().errors).toEqual([expect.objectContaining({ pointer: '/body/condition/label' })]);
    const both = await call('POST', '/api/alerts', alice, {
      type: 'address_flow',
      condition: { direction: 'in', label: own.id, address: FUND, minUsd: 1000 },
    });
    expect(both.statusCode).toBe(400);

    const created = await call('POST', '/api/alerts', alice, {
      type: 'address_flow',
      condition: { direction: 'in', label: own.id, minUsd: 1000 },
      trigger: { mode: 'every', cooldownSec: 60 },
    });
    expect(created.statusCode).toBe(201);
    const rule = created.json() as Json;
    expect(rule.condition).toMatchObject({ label: own.id, address: WATCHED });

    const evaluator = t.container.alerts.evaluator;
    await evaluator.start();
    await waitUntil(() => evaluator.isWatching(rule.id), 'the evaluator to watch the rule', 5_000);
    const now = Date.now();
    await t.container.bus.publish(topics.onchainFlow, {
      id: `ethereum:0xpriv:1:binance`,
      chain: 'ethereum',
      txHash: '0xpriv',
      logIndex: 1,
      kind: 'token',
      labelVersion: 'test',
      blockNumber: 1,
      blockHash: '0xb1',
      time: new Date(now).toISOString(),
      timestamp: now,
      exchange: 'binance',
      direction: 'withdrawal',
      asset: 'USDT',
      tokenAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7',
      amount: '5000',
      usdValue: 5000,
      from: { address: HOT, exchange: 'binance', label: 'Binance 14' },
      to: { address: WATCHED, exchange: null, label: null },
    });
    await evaluator.idle();
    const events = createKyselyEventsRepository(tablesOf<EventsTables>(t.container.db.db));
    const of = async (who: TestUser) =>
      (await events.listForAccount(who.id, 0, 100)).map((e) => JSON.parse(e.body) as Json);
    const aliceEvents = await of(alice);
    expect(aliceEvents.map((e) => [e.type, e.data.rule.id, e.data.flow.to.address])).toEqual([
      ['onchain.flow', rule.id, WATCHED],
    ]);
    expect(await of(bob)).toEqual([]);

    // An edit can move the rule to another of Alice's labels; never to Bob's.
    const bobs = (await call('GET', '/api/labels', bob)).json().data[0] as Json;
    const refused = await call('PATCH', `/api/alerts/${rule.id}`, alice, {
      condition: { direction: 'in', label: bobs.id, minUsd: 1000 },
    });
    expect(refused.statusCode).toBe(400);
    const exchangeLabel = (await call('GET', '/api/labels?kind=exchange', alice)).json().data[0] as Json;
    const moved = await call('PATCH', `/api/alerts/${rule.id}`, alice, {
      condition: { direction: 'in', label: exchangeLabel.id, minUsd: 1000 },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().condition).toMatchObject({ label: exchangeLabel.id, address: HOT });
  });
});
