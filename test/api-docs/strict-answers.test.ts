import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document walked generically
type Json = any;

/**
 * Every field the server returns is in the schema: live answers of the read endpoints, validated against
 * their OpenAPI response schema with every object closed (`unevaluatedProperties: false` wherever the schema
 * leaves extra properties open). A field added to an answer but not to its TypeBox schema fails here.
 */
function closeObjects(node: Json): Json {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === 'examples' || key === 'example' ? value : closeObjects(value);
  const open =
    out.additionalProperties === undefined &&
    out.patternProperties === undefined &&
    out.unevaluatedProperties === undefined;
  if (open && (out.type === 'object' || out.properties) && !out.$ref) out.unevaluatedProperties = false;
  return out;
}

describe('live answers against their schemas, extra properties forbidden', () => {
  let t: TestApp;
  let user: TestUser;
  let ajv: Ajv2020;
  let ruleId = '';

  beforeAll(async () => {
    t = await createTestApp({
      env: { MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT', MERIDIAN_MARKET_HISTORY_DAYS: '1', MERIDIAN_SIM_SEED: '7' },
    });
    const market = t.container.market.service;
    await market.start();
    await market.windowsLoaded();
    market.tickNow();
    // The models' first fit over the working window (as a worker's start does): no forecasts before it.
    t.container.predictions.service.warmUp();
    await t.container.predictions.service.refresh();
    user = await t.user('member');
    const rule = await t.app.inject({
      method: 'POST',
      url: '/api/alerts',
      headers: user.auth,
      payload: { type: 'price', symbol: 'BTC', condition: { op: 'above', value: 1_000_000 } },
    });
    ruleId = rule.json().id;
    const imported = await t.app.inject({
      method: 'POST',
      url: '/api/portfolio/import',
      headers: { ...user.auth, 'content-type': 'text/csv' },
      payload: 'asset,quantity,cost_basis\nBTC,0.5,20000\nETH,2,\n',
    });
    expect(imported.statusCode, imported.body).toBeLessThan(300);

    const doc = closeObjects(t.app.swagger());
    ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true, allowUnionTypes: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components, paths: doc.paths });
  }, 180_000);
  afterAll(async () => {
    await t.container.market.service.stop();
    await t.close();
  });

  const pointer = (path: string) => path.replace(/~/g, '~0').replace(/\//g, '~1');

  it.each([
    ['/api/account', '/api/account'],
    ['/api/market-data', '/api/market-data'],
    ['/api/market-history', '/api/market-history?symbol=BTCUSDT&interval=1h&limit=50'],
    ['/api/onchain/flows', '/api/onchain/flows'],
    [
      '/api/predictions',
      '/api/predictions?symbol=BTCUSDT&horizon=1h&include=quantiles,outcome,modelVersion,backfilled',
    ],
    ['/api/predictions/ai-outlook', '/api/predictions/ai-outlook?symbol=BTCUSDT'],
    ['/api/predictions/ai-outlook', '/api/predictions/ai-outlook'],
    ['/api/predictions/performance', '/api/predictions/performance'],
    ['/api/alerts', '/api/alerts'],
    ['/api/alerts/{id}', '/api/alerts/:rule'],
    ['/api/portfolio', '/api/portfolio'],
    ['/api/portfolio/rows', '/api/portfolio/rows'],
    ['/api/dashboard/analytics', '/api/dashboard/analytics'],
  ])('%s (%s)', async (path, url) => {
    const res = await t.app.inject({ url: url.replace(':rule', ruleId), headers: user.auth });
    expect(res.statusCode, res.body).toBe(200);
    const schemaRef = `openapi#/paths/${pointer(path)}/get/responses/200/content/application~1json/schema`;
    const validate = ajv.compile({ $ref: schemaRef });
    const ok = validate(res.json());
    expect(validate.errors ?? [], `${url}: ${JSON.stringify(validate.errors?.slice(0, 5))}`).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the unsupported-symbol problem carries `supported`, and the Problem schema has it', async () => {
    const res = await t.app.inject({
      url: '/api/predictions?symbol=NOPEUSDT&strict=true',
      headers: user.auth,
    });
    expect(res.statusCode).toBe(400);
    const validate = ajv.compile({ $ref: 'openapi#/components/schemas/Problem' });
    expect(validate(res.json()), JSON.stringify(validate.errors)).toBe(true);
    expect(res.json().supported).toEqual(['BTCUSDT', 'ETHUSDT']);
    // The check has teeth: one field more than the schema names is refused.
    expect(validate({ ...res.json(), unlisted: true })).toBe(false);
  });
});
