import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const jsonRows = (n: number, over: (i: number) => Record<string, unknown> = () => ({})) => ({
  rows: Array.from({ length: n }, (_, i) => ({
    asset: 'ETH',
    quantity: `0.${String(i + 1).padStart(3, '0')}`,
    ...over(i),
  })),
});

describe.each(dbKinds())('portfolio import (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ db: kind, env: { MERIDIAN_RATE_LIMIT_STANDARD: '100000' } });
  });
  afterAll(async () => t?.close());

  const post = (
    user: TestUser,
    payload: unknown,
    opts: { csv?: boolean; query?: string; key?: string } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/portfolio/import${opts.query ?? ''}`,
      headers: {
        ...user.auth,
        'content-type': opts.csv ? 'text/csv' : 'application/json',
        ...(opts.key ? { 'idempotency-key': opts.key } : {}),
      },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const rowsOf = async (user: TestUser) =>
    (await t.app.inject({ method: 'GET', url: '/api/portfolio/rows', headers: user.auth })).json()
      .data as Array<Record<string, string | null>>;
  const holdingsOf = async (user: TestUser) =>
    (await t.app.inject({ method: 'GET', url: '/api/portfolio', headers: user.auth })).json();

  it('accepts 200 rows and stores every one', async () => {
    member = await t.user('member');
    const res = await post(member, jsonRows(200));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ inserted: 200, updated: 0, unchanged: 0, rows: 200, dryRun: false });
    expect(body.importId).toMatch(/^imp_/);
    expect(await rowsOf(member)).toHaveLength(200);
  });

  it('refuses 201 rows with 413 and stores nothing (JSON and CSV)', async () => {
    const user = await t.user('member');
    const res = await post(user, jsonRows(201));
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ code: 'payload_too_large', maxRows: 200 });
    const csv = `asset,quantity\n${Array.from({ length: 201 }, () => 'BTC,1').join('\n')}\n`;
    const csvRes = await post(user, csv, { csv: true });
    expect(csvRes.statusCode).toBe(413);
    expect(await rowsOf(user)).toHaveLength(0);
    const imports = await t.app.inject({ method: 'GET', url: '/api/portfolio/imports', headers: user.auth });
    expect(imports.json().data).toHaveLength(0);
  });

  it('an import without rows (JSON or CSV) names /body/rows, like any problem outside the rows', async () => {
    const user = await t.user('member');
    for (const res of [await post(user, jsonRows(0)), await post(user, 'asset,quantity\n', { csv: true })]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ pointer: '/body/rows', message: 'must hold at least one row' }]);
    }
    expect(await rowsOf(user)).toHaveLength(0);
  });

  it('names row 147 and its field when its quantity is "lots", and stores nothing', async () => {
    const user = await t.user('member');
    const lines = ['Asset,Quantity,Cost Basis (USD)'];
    for (let i = 1; i <= 160; i++) lines.push(i === 147 ? 'BTC,lots,100' : `BTC,0.01,${i}`);
    const res = await post(user, `${lines.join('\n')}\n`, { csv: true });
    expect(res.statusCode).toBe(400);
    const problem = res.json();
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([
      {
        row: 147,
        pointer: '/rows/146/quantity',
        field: 'quantity',
        column: 'Quantity',
        line: 148,
        message: '"lots" is not a decimal number',
      },
    ]);
    expect(problem.detail).toContain('row 147 quantity');
    expect(await rowsOf(user)).toHaveLength(0);
  });

  it('lists every problem of every row in a JSON import, by row number and pointer', async () => {
    const user = await t.user('member');
    const res = await post(user, {
      rows: [
        { asset: 'BTC', quantity: '1' },
        { asset: 'NOPECOIN', quantity: '-2' },
        { asset: 'ETH', quantity: '1', colour: 'blue' },
        { quantity: '1', acquiredAt: 'yesterday' },
      ],
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors as Array<{ row: number; pointer: string; message: string }>;
    expect(errors.map((e) => [e.row, e.pointer])).toEqual([
      [2, '/rows/1/asset'],
      [2, '/rows/1/quantity'],
      [3, '/rows/2/colour'],
      [4, '/rows/3/asset'],
    ]);
    expect(await rowsOf(user)).toHaveLength(0);
  });

  it('normalizes assets through the symbols module (BTC, bitcoin, XBT → BTC)', async () => {
    const user = await t.user('member');
    const res = await post(user, {
      rows: [
        { asset: 'BTC', quantity: 1 },
        { asset: 'bitcoin', quantity: '0.5' },
        { asset: ' xbt ', quantity: 0.25 },
      ],
    });
    expect(res.statusCode).toBe(201);
    const rows = await rowsOf(user);
    expect(rows.map((r) => r.asset)).toEqual(['BTC', 'BTC', 'BTC']);
    const holdings = await holdingsOf(user);
    expect(holdings.holdings).toHaveLength(1);
    expect(holdings.holdings[0]).toMatchObject({ asset: 'BTC', quantity: '1.75', rows: 3 });
  });

  it('keeps JSON numbers exact (no float on the way in)', async () => {
    const user = await t.user('member');
    const body =
      '{"rows":[{"asset":"ETH","quantity":0.000000012345678901,"costBasis":12345678901234567890.123456789}]}';
    const res = await post(user, body);
    expect(res.statusCode).toBe(201);
    const [row] = await rowsOf(user);
    expect(row).toMatchObject({
      quantity: '0.000000012345678901',
      costBasis: '12345678901234567890.123456789',
    });
  });

  it('reads CSV quirks: BOM, semicolons, quoted delimiters and newlines', async () => {
    const user = await t.user('member');
    const csv =
      '\ufeffCoin;Amount;Cost;Notes;External ID\r\nETH;"1.5";3000;"bought; on ""dip""\nsecond line";e-1\r\nsol;2;;;e-2\r\n';
    const res = await post(user, csv, { csv: true });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ inserted: 2, format: 'csv' });
    const rows = await rowsOf(user);
    expect(rows.map((r) => [r.asset, r.quantity, r.costBasis, r.note, r.externalId])).toEqual([
      ['ETH', '1.5', '3000', 'bought; on "dip"\nsecond line', 'e-1'],
      ['SOL', '2', null, null, 'e-2'],
    ]);
  });

  it('imports three tracker exports (Koinly, CoinTracker, Coinbase) to the same holdings', async () => {
    const quantities: Array<Record<string, string>> = [];
    const costs: Array<Record<string, string | null>> = [];
    for (const file of ['koinly-simple.csv', 'cointracker.csv', 'coinbase.csv']) {
      const user = await t.user('member');
      const res = await post(user, fixture(file), { csv: true });
      expect(res.statusCode, `${file}: ${res.body}`).toBe(201);
      expect(res.json().inserted).toBe(4);
      const { holdings } = await holdingsOf(user);
      quantities.push(
        Object.fromEntries(holdings.map((h: { asset: string; quantity: string }) => [h.asset, h.quantity])),
      );
      costs.push(
        Object.fromEntries(
          holdings.map((h: { asset: string; costBasisUsd: string | null }) => [h.asset, h.costBasisUsd]),
        ),
      );
      const rows = await rowsOf(user);
      expect(rows[0]!.acquiredAt).toBe('2024-01-15T09:30:00.000Z');
    }
    expect(quantities[0]).toEqual({ BTC: '0.75', ETH: '3.75', USDC: '1200' });
    expect(quantities[1]).toEqual(quantities[0]);
    expect(quantities[2]).toEqual(quantities[0]);
    // Koinly (Net Worth) and Coinbase (Total) carry the cost; this CoinTracker layout has no cost column.
    expect(costs[0]).toEqual({ BTC: '33375.50', ETH: '8812.50', USDC: '1200.00' });
    expect(costs[2]).toEqual(costs[0]);
    expect(costs[1]).toEqual({ BTC: null, ETH: null, USDC: null });
  });

  it('dryRun validates and counts but stores nothing', async () => {
    const user = await t.user('member');
    const res = await post(user, jsonRows(3), { query: '?dryRun=true' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ importId: null, inserted: 3, dryRun: true });
    expect(await rowsOf(user)).toHaveLength(0);
    const bad = await post(user, { rows: [{ asset: 'BTC', quantity: 'x' }] }, { query: '?dryRun=true' });
    expect(bad.statusCode).toBe(400);
  });

  it('re-importing an externalId updates that row instead of adding one', async () => {
    const user = await t.user('member');
    const first = await post(user, {
      rows: [
        { asset: 'BTC', quantity: '1', externalId: 'kr-1' },
        { asset: 'ETH', quantity: '2', externalId: 'kr-2' },
      ],
    });
    expect(first.json()).toMatchObject({ inserted: 2, updated: 0, unchanged: 0 });
    const before = await rowsOf(user);
    const again = await post(user, {
      rows: [
        { asset: 'BTC', quantity: '1.0', externalId: 'kr-1' },
        { asset: 'ETH', quantity: '3', externalId: 'kr-2' },
        { asset: 'SOL', quantity: '4', externalId: 'kr-3' },
      ],
    });
    expect(again.json()).toMatchObject({ inserted: 1, updated: 1, unchanged: 1 });
    const after = await rowsOf(user);
    expect(after).toHaveLength(3);
    const eth = after.find((r) => r.externalId === 'kr-2')!;
    expect(eth.quantity).toBe('3');
    expect(eth.id).toBe(before.find((r) => r.externalId === 'kr-2')!.id);
    const dup = await post(user, {
      rows: [
        { asset: 'BTC', quantity: '1', externalId: 'x' },
        { asset: 'BTC', quantity: '2', externalId: 'x' },
      ],
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors[0]).toMatchObject({ row: 2, field: 'externalId' });
  });

  it('values holdings at the market price and lists unpriced assets with price null', async () => {
    const user = await t.user('member');
    await post(user, {
      rows: [
        { asset: 'BTC', quantity: '2', costBasis: '1000' },
        { asset: 'LTC', quantity: '10', costBasis: '500' },
        { asset: 'USDT', quantity: '100' },
      ],
    });
    const view = await holdingsOf(user);
    const price = t.container.market.service.usdPriceNow('BTC');
    const btc = view.holdings.find((h: { asset: string }) => h.asset === 'BTC');
    const ltc = view.holdings.find((h: { asset: string }) => h.asset === 'LTC');
    if (price === null) expect(btc.price).toBeNull();
    else {
      expect(btc.price).toBe(price);
      expect(Number(btc.valueUsd)).toBeCloseTo(2 * price, 2);
      expect(Number(btc.unrealizedPnlUsd)).toBeCloseTo(2 * price - 1000, 2);
    }
    expect(ltc).toMatchObject({ price: null, valueUsd: null, unrealizedPnlUsd: null, allocationPct: null });
    expect(view.totals.unpricedAssets).toContain('LTC');
    expect(view.holdings.find((h: { asset: string }) => h.asset === 'USDT')).toMatchObject({
      price: 1,
      valueUsd: '100.00',
    });
    expect(view.priceSource).toBe('simulated');
  });

  it('deletes one row and resets the whole portfolio', async () => {
    const user = await t.user('member');
    await post(user, jsonRows(3));
    const rows = await rowsOf(user);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/portfolio/rows/${rows[0]!.id}`,
      headers: user.auth,
    });
    expect(del.statusCode).toBe(204);
    expect(await rowsOf(user)).toHaveLength(2);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/portfolio/rows/${rows[0]!.id}`,
      headers: user.auth,
    });
    expect(again.statusCode).toBe(404);
    const reset = await t.app.inject({ method: 'DELETE', url: '/api/portfolio', headers: user.auth });
    expect(reset.json()).toEqual({ deleted: 2 });
    expect(await rowsOf(user)).toHaveLength(0);
  });

  it('keeps accounts apart, and a viewer may read but not import', async () => {
    const a = await t.user('member');
    const b = await t.user('member');
    await post(a, { rows: [{ asset: 'BTC', quantity: '1', externalId: 'a-1' }] });
    const aRow = (await rowsOf(a))[0]!;
    expect(await rowsOf(b)).toHaveLength(0);
    expect((await holdingsOf(b)).holdings).toHaveLength(0);
    const bImports = await t.app.inject({ method: 'GET', url: '/api/portfolio/imports', headers: b.auth });
    expect(bImports.json().data).toHaveLength(0);
    const bDelete = await t.app.inject({
      method: 'DELETE',
      url: `/api/portfolio/rows/${aRow.id}`,
      headers: b.auth,
    });
    expect(bDelete.statusCode).toBe(404);
    // B importing the same externalId gets its own row; A's is untouched.
    await post(b, { rows: [{ asset: 'ETH', quantity: '9', externalId: 'a-1' }] });
    expect((await rowsOf(a))[0]).toMatchObject({ asset: 'BTC', quantity: '1' });
    const bAnalytics = (
      await t.app.inject({ method: 'GET', url: '/api/dashboard/analytics', headers: b.auth })
    ).json();
    expect(bAnalytics.portfolio.allocation.map((x: { asset: string }) => x.asset)).toEqual(['ETH']);

    const viewer = await t.user('viewer');
    const refused = await post(viewer, jsonRows(1));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('forbidden');
    expect(await rowsOf(viewer)).toHaveLength(0);
    const read = await t.app.inject({ method: 'GET', url: '/api/portfolio', headers: viewer.auth });
    expect(read.statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: '/api/portfolio', headers: viewer.auth });
    expect(del.statusCode).toBe(403);
  });

  it('answers a body that is neither JSON nor CSV with 415, and broken JSON with 400', async () => {
    const user = await t.user('member');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/portfolio/import',
      headers: { ...user.auth, 'content-type': 'application/xml' },
      payload: '<rows/>',
    });
    expect(res.statusCode).toBe(415);
    const broken = await post(user, '{"rows": [');
    expect(broken.statusCode).toBe(400);
    expect(broken.headers['content-type']).toContain('application/problem+json');
  });
});
