import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import { predictionLevels } from '../../src/app/alerts.ts';
import type { AppBus, Topics } from '../../src/app/bus-topics.ts';
import { renderTemplate, valuesOf } from '../../src/modules/alert-channels/index.ts';
import {
  type AlertsService,
  type AlertsTables,
  createAlertsService,
  createEvaluator,
  createKyselyAlertsRepository,
  type Evaluator,
  type RuleInput,
} from '../../src/modules/alerts/index.ts';
import { createKyselyEventsRepository, type EventsTables } from '../../src/modules/events/index.ts';
import {
  DEFAULT_SYMBOLS,
  createSupportedSymbols,
  normalizeExchange,
} from '../../src/modules/identifiers/index.ts';
import {
  createKyselyPredictionRepository,
  levelProbabilities,
  type PredictionRepository,
  type PredictionsTables,
  PUBLIC_QUANTILES,
  quantileKey,
} from '../../src/modules/predictions/index.ts';
import { normQuantile } from '../../src/modules/predictions/math.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

// biome-ignore lint/suspicious/noExplicitAny: event bodies are checked field by field
type Json = any;

const T0 = Date.UTC(2026, 6, 1, 12, 0, 0);
const MINUTE = 60_000;
const BASELINE = 100_000;
const silent = { info() {}, warn() {}, error() {} };

/**
 * A stored 6h datapoint of BTCUSDT whose forecast distribution is log-normal around `drift` (log return) with
 * spread 0.05: the further the drift towards a level, the likelier the level.
 */
function datapoint(at: number, drift: number) {
  const quantiles = Object.fromEntries(
    PUBLIC_QUANTILES.map((p) => [quantileKey(p), BASELINE * Math.exp(drift + 0.05 * normQuantile(p))]),
  );
  return {
    symbol: 'BTCUSDT',
    horizon: '6h' as const,
    generated_at: at,
    baseline: BASELINE,
    prediction: quantiles.p50!,
    expected_move_pct: drift * 100,
    direction_earned: false,
    facts: {},
    confidence: 0.6,
    factors: { orderflow: 0.5, funding: 0, macro: -0.25, ai_residual: 0.25 },
    quantiles,
    model_version: 'test',
    sigma: 0.05,
    sigma_rw: 0.05,
    realized: null,
    hit: null,
    crps: null,
    crps_rw: null,
    crps_garch: null,
    crps_har_rv: null,
    covered80: null,
    covered90: null,
    scored_at: null,
    backfilled: false,
  };
}

describe.each(dbKinds())('probability alert rules on %s', (kind) => {
  let handle: DbHandle;
  let events: ReturnType<typeof createKyselyEventsRepository>;
  let predictions: PredictionRepository;
  let service: AlertsService;
  let evaluator: Evaluator;
  let bus: AppBus;
  let accounts = 0;
  const clock = manualClock(T0);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const repo = createKyselyAlertsRepository(tablesOf<AlertsTables & EventsTables>(handle.db));
    events = createKyselyEventsRepository(tablesOf<EventsTables>(handle.db));
    predictions = createKyselyPredictionRepository(tablesOf<PredictionsTables>(handle.db), {
      now: () => clock.now(),
    });
    bus = memoryBus<Topics>();
    service = createAlertsService({
      repo,
      bus,
      clock,
      symbols: createSupportedSymbols(DEFAULT_SYMBOLS),
      resolveExchange: (name) => normalizeExchange(name, { strict: true }).value,
      caps: { standard: 1000 },
    });
    evaluator = createEvaluator({
      repo,
      bus,
      clock,
      log: silent,
      syncMs: 60_000,
      sweepMs: 60_000,
      predictionLevels: predictionLevels(predictions),
    });
    await evaluator.start();
  });
  afterAll(async () => {
    await evaluator?.stop();
    await handle?.close();
  });

  async function rule(input: RuleInput) {
    const accountId = `usr_prob${++accounts}_${kind}`;
    const view = await service.create({ accountId, plan: 'standard' }, input);
    await waitUntil(() => evaluator.isWatching(view.id), 'the evaluator to watch the new rule', 5_000);
    return { accountId, view };
  }

  /** One refresh as the predictions job does it: the datapoint stored, then announced on the bus. */
  async function publish(at: number, drift: number) {
    clock.set(at);
    const row = datapoint(at, drift);
    await predictions.record([row], []);
    await bus.publish(topics.predictionsRefreshed, [
      {
        symbol: row.symbol,
        horizon: row.horizon,
        prediction: row.prediction,
        baseline: row.baseline,
        expectedMovePct: row.expected_move_pct,
        confidence: row.confidence,
        factors: row.factors as Json,
        generatedAt: new Date(at).toISOString(),
      },
    ]);
    await evaluator.idle();
    return row;
  }

  const fired = async (accountId: string) =>
    (await events.listForAccount(accountId, 0, 100)).map((e) => JSON.parse(e.body) as Json);
  const endAbove = (row: ReturnType<typeof datapoint>, level: number) =>
    levelProbabilities(row, [level])[0]!.endAbove;

  it('fires on the first published datapoint whose probability passes the threshold, not before', async () => {
    const { accountId, view } = await rule({
      type: 'probability',
      symbol: 'btc',
      name: 'BTC 110k in 6h',
      condition: { horizon: '6h', level: 110_000, kind: 'end_above', op: 'above', value: 0.3 },
      template: '{{symbol}} ends above {{level}} within {{horizon}}: {{probability}} ({{condition}})',
    });
    expect(view).toMatchObject({ type: 'probability', symbol: 'BTCUSDT' });
    // Drifts towards 110k: 0 %, then about 3 %, 9 % and 24 % to end above it; none above 30 %.
    for (const [i, drift] of [-0.02, 0.0, 0.03, 0.065].entries()) {
      const row = await publish(T0 + (i + 1) * MINUTE, drift);
      expect(endAbove(row, 110_000)).toBeLessThan(0.3);
      expect(await fired(accountId)).toEqual([]);
    }
    const crossing = T0 + 5 * MINUTE;
    const row = await publish(crossing, 0.08);
    const probability = endAbove(row, 110_000);
    expect(probability).toBeGreaterThan(0.3);
    const bodies = await fired(accountId);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      type: 'alert.triggered',
      test: false,
      data: {
        rule: { id: view.id, type: 'probability', symbol: 'BTCUSDT' },
        trigger: { eventAt: new Date(crossing).toISOString(), value: probability },
        prediction: {
          symbol: 'BTCUSDT',
          horizon: '6h',
          level: 110_000,
          kind: 'end_above',
          probability,
          generatedAt: new Date(crossing).toISOString(),
          baseline: BASELINE,
        },
      },
    });
    // The channel message fills the new variables from the event.
    const { values, template } = valuesOf(JSON.stringify(bodies[0]), undefined);
    expect(renderTemplate(template, values)).toBe(
      `BTCUSDT ends above 110000 within 6h: ${Math.round(probability * 1000) / 10} % (ends above 110000 within 6h: probability above 30 %)`,
    );
    // once: triggered; a later datapoint that still holds fires nothing.
    await publish(crossing + MINUTE, 0.09);
    expect(await fired(accountId)).toHaveLength(1);
    expect((await service.get(accountId, view.id)).state).toBe('triggered');
  });

  it('every: a touch rule fires again only once its cooldown has passed on the datapoints', async () => {
    const { accountId } = await rule({
      type: 'probability',
      symbol: 'BTCUSDT',
      condition: { horizon: '6h', level: 95_000, kind: 'touch', op: 'above', value: 0.5 },
      trigger: { mode: 'every', cooldownSec: 600 },
    });
    const start = T0 + 60 * MINUTE;
    // A falling drift keeps 95k likely to be touched on every datapoint, one a minute for 15 minutes.
    for (let m = 0; m < 15; m++) await publish(start + m * MINUTE, -0.04);
    const times = (await fired(accountId)).map((b) => b.data.trigger.eventAt);
    expect(times).toEqual([new Date(start).toISOString(), new Date(start + 10 * MINUTE).toISOString()]);
    const first = (await fired(accountId))[0];
    expect(first.data.prediction.kind).toBe('touch');
    expect(first.data.trigger.value).toBe(levelProbabilities(datapoint(start, -0.04), [95_000])[0]!.touch);
  });

  it('a below rule on another horizon is left alone by 6h datapoints', async () => {
    const { accountId } = await rule({
      type: 'probability',
      symbol: 'BTCUSDT',
      condition: { horizon: '1h', level: 200_000, kind: 'end_above', op: 'below', value: 0.5 },
    });
    await publish(T0 + 120 * MINUTE, 0);
    expect(await fired(accountId)).toEqual([]);
  });
});

describe('probability alert rules through the API', () => {
  let t: TestApp;
  let member: TestUser;
  const body = (condition: Record<string, unknown>) => ({
    type: 'probability',
    symbol: 'BTCUSDT',
    condition: { horizon: '6h', level: 100_000, kind: 'end_above', op: 'above', value: 0.3, ...condition },
  });

  beforeAll(async () => {
    t = await createTestApp({ db: 'pglite' });
    member = await t.user('member');
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: member.auth, payload: payload as object });

  it('creates one and refuses a bad threshold, horizon or level, naming the field', async () => {
    const created = await post('/api/alerts', body({}));
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      type: 'probability',
      name: 'BTCUSDT ends above 100000 within 6h: probability above 0.3',
      condition: { horizon: '6h', level: 100_000, kind: 'end_above', op: 'above', value: 0.3 },
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ value: 1.5 }, '/body/condition/value'],
      [{ horizon: '2h' }, '/body/condition/horizon'],
      [{ level: 0 }, '/body/condition/level'],
      [{ level: -5 }, '/body/condition/level'],
      [{ kind: 'close_above' }, '/body/condition/kind'],
    ];
    for (const [condition, pointer] of cases) {
      const res = await post('/api/alerts', body(condition));
      expect(res.statusCode, JSON.stringify(condition)).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    const template = await post('/api/alerts', { ...body({}), template: '{{probability}} {{nope}}' });
    expect(template.statusCode).toBe(400);
    expect(template.body).toContain('{{nope}}');
    expect(template.body).not.toContain('{{probability}} is not');
  });

  it('refuses a backtest with a 400 naming the missing history', async () => {
    const res = await post('/api/alerts/backtest', body({}));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        pointer: '/body/type',
        message:
          'probability rules cannot be backtested: no per-level probability history is stored to replay (each is computed from a forecast as it is published)',
      },
    ]);
  });

  it('previews its template with the level, horizon and threshold', async () => {
    const res = await post('/api/alert-channels/preview', {
      ruleType: 'probability',
      template: '{{symbol}} {{level}} {{horizon}} {{probability}}',
      rule: { symbol: 'BTCUSDT', condition: body({}).condition },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().text).toBe('BTCUSDT 100000 6h 30 %');
    expect(res.json().unknownVariables).toEqual([]);
  });
});
