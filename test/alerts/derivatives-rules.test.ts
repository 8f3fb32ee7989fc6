import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import type { AppBus, Topics } from '../../src/app/bus-topics.ts';
import { derivativesCoverage } from '../../src/app/alerts.ts';
import {
  type AlertsService,
  type AlertsTables,
  createAlertsService,
  createEvaluator,
  createKyselyAlertsRepository,
  type Evaluator,
  type RuleInput,
} from '../../src/modules/alerts/index.ts';
import {
  createDerivativesService,
  createMemoryDerivativesRepository,
  type DerivativesService,
  type DerivativesSource,
  type Liquidation,
  type VenueReading,
} from '../../src/modules/derivatives/index.ts';
import { createKyselyEventsRepository, type EventsTables } from '../../src/modules/events/index.ts';
import {
  DEFAULT_SYMBOLS,
  createSupportedSymbols,
  normalizeExchange,
} from '../../src/modules/identifiers/index.ts';
import { AppError } from '../../src/shared/errors.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

// biome-ignore lint/suspicious/noExplicitAny: event bodies are checked field by field
type Json = any;

const T0 = Date.UTC(2026, 6, 1, 12, 0, 0);
const MINUTE = 60_000;
const silent = { info() {}, warn() {}, error() {} };

/**
 * A derivatives source whose next readings and liquidations the test sets: the real derivatives service
 * merges them and publishes its update on the bus, as the derivatives job does.
 */
function scriptedSource(clock: { now(): number }) {
  const next = new Map<
    string,
    { reading: Omit<VenueReading, 'venue' | 'symbol' | 'time'>; liq: Liquidation[] }
  >();
  const source: DerivativesSource = {
    kind: 'scripted',
    simulated: true,
    venues: ['binance'],
    // XRPUSDT: covered by configuration, but no venue answers for it.
    symbols: ['BTCUSDT', 'ETHUSDT', 'XRPUSDT'],
    metrics: ['funding', 'open_interest', 'basis', 'liquidations'],
    liquidationVenues: ['binance'],
    async poll(symbol) {
      const s = next.get(symbol);
      if (!s) return { readings: [], liquidations: [] };
      next.set(symbol, { reading: s.reading, liq: [] });
      return {
        readings: [{ venue: 'binance', symbol, time: clock.now(), ...s.reading }],
        liquidations: s.liq,
      };
    },
  };
  return {
    source,
    set(symbol: string, reading: Omit<VenueReading, 'venue' | 'symbol' | 'time'>, liq: Liquidation[] = []) {
      next.set(symbol, { reading, liq });
    },
  };
}

const fundingOf = (annualizedPct: number) => annualizedPct / 100 / (8760 / 8);
const liquidation = (side: 'long' | 'short', usd: number, time: number): Liquidation => ({
  venue: 'binance',
  symbol: 'BTCUSDT',
  time,
  side,
  price: 60_000,
  size: usd / 60_000,
  usd,
});

describe.each(dbKinds())('derivatives alert rules on %s', (kind) => {
  let handle: DbHandle;
  let events: ReturnType<typeof createKyselyEventsRepository>;
  let service: AlertsService;
  let evaluator: Evaluator;
  let derivatives: DerivativesService;
  let script: ReturnType<typeof scriptedSource>;
  let accounts = 0;
  const clock = manualClock(T0);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const repo = createKyselyAlertsRepository(tablesOf<AlertsTables & EventsTables>(handle.db));
    events = createKyselyEventsRepository(tablesOf<EventsTables>(handle.db));
    const bus: AppBus = memoryBus<Topics>();
    script = scriptedSource(clock);
    derivatives = createDerivativesService({
      source: script.source,
      repository: createMemoryDerivativesRepository(),
      clock,
      symbols: script.source.symbols,
      sourceLabel: 'simulated',
      staleMs: 300_000,
      outlierBps: 200,
      refreshMs: 60_000,
      historyDays: 1,
      log: silent,
      onPublish: (update) => void bus.publish(topics.derivativesUpdate, update),
    });
    service = createAlertsService({
      repo,
      bus,
      clock,
      symbols: createSupportedSymbols(DEFAULT_SYMBOLS),
      resolveExchange: (name) => normalizeExchange(name, { strict: true }).value,
      derivatives: derivativesCoverage(script.source, derivatives),
      caps: { standard: 1000 },
    });
    evaluator = createEvaluator({ repo, bus, clock, log: silent, syncMs: 60_000, sweepMs: 60_000 });
    await evaluator.start();
  });
  afterAll(async () => {
    await evaluator?.stop();
    await handle?.close();
  });

  async function rule(input: RuleInput) {
    const accountId = `usr_deriv${++accounts}_${kind}`;
    const view = await service.create({ accountId, plan: 'standard' }, input);
    await waitUntil(() => evaluator.isWatching(view.id), 'the evaluator to watch the new rule', 5_000);
    return { accountId, view };
  }

  /** One derivatives refresh at `at`, then every write it caused is stored. */
  async function refreshAt(at: number) {
    clock.set(at);
    await derivatives.refresh();
    await evaluator.idle();
  }

  const fired = async (accountId: string) =>
    (await events.listForAccount(accountId, 0, 100)).map((e) => JSON.parse(e.body) as Json);

  it('funding above fires on the refresh whose rate crosses the threshold, not before and not later', async () => {
    const { accountId, view } = await rule({
      type: 'funding',
      symbol: 'btc',
      condition: { op: 'above', value: 30 },
    });
    expect(view).toMatchObject({ type: 'funding', symbol: 'BTCUSDT', condition: { op: 'above', value: 30 } });
    for (const [i, pct] of [10, 25, 29.9].entries()) {
      script.set('BTCUSDT', { fundingRate: fundingOf(pct), fundingIntervalHours: 8, openInterestUsd: 1e9 });
      await refreshAt(T0 + (i + 1) * MINUTE);
      expect(await fired(accountId)).toEqual([]);
    }
    script.set('BTCUSDT', { fundingRate: fundingOf(31), fundingIntervalHours: 8, openInterestUsd: 1e9 });
    const crossing = T0 + 4 * MINUTE;
    await refreshAt(crossing);
    const bodies = await fired(accountId);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      type: 'alert.triggered',
      test: false,
      data: {
        rule: { id: view.id, type: 'funding', symbol: 'BTCUSDT' },
        trigger: { eventAt: new Date(crossing).toISOString() },
        derivatives: { symbol: 'BTCUSDT', metric: 'funding', source: 'simulated', simulated: true },
      },
    });
    expect(bodies[0].data.trigger.value).toBeCloseTo(31, 6);
    expect(bodies[0].data.derivatives.fundingAnnualizedPct).toBeCloseTo(31, 6);
    // once: triggered, no further firing while it holds
    await refreshAt(crossing + MINUTE);
    expect(await fired(accountId)).toHaveLength(1);
    expect((await service.get(accountId, view.id)).state).toBe('triggered');
  });

  it('an absent funding rate is not read as 0: a "below" rule waits for a rate', async () => {
    script.set('ETHUSDT', { openInterestUsd: 5e8 });
    await refreshAt(T0 + 9 * MINUTE);
    const { accountId } = await rule({
      type: 'funding',
      symbol: 'ETHUSDT',
      condition: { op: 'below', value: 5 },
    });
    await refreshAt(T0 + 10 * MINUTE);
    expect(derivatives.views(['ETHUSDT'])[0]?.funding).toBeNull();
    expect(await fired(accountId)).toEqual([]);
    script.set('ETHUSDT', { fundingRate: fundingOf(2), fundingIntervalHours: 8, openInterestUsd: 5e8 });
    await refreshAt(T0 + 11 * MINUTE);
    expect(await fired(accountId)).toHaveLength(1);
  });

  it('open-interest change over 1h fires on the refresh where the change passes the threshold', async () => {
    const { accountId, view } = await rule({
      type: 'open_interest',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: 5, window: '1h' },
    });
    const start = T0 + 60 * MINUTE;
    for (let m = 0; m <= 60; m++) {
      script.set('BTCUSDT', { fundingRate: 0.0001, openInterestUsd: 100e6 * (1 + m * 0.0008) });
      await refreshAt(start + m * MINUTE);
    }
    // 60 minutes in: +4.8 % on the value an hour ago, under 5 %.
    expect(await fired(accountId)).toEqual([]);
    script.set('BTCUSDT', { fundingRate: 0.0001, openInterestUsd: 100e6 * 1.0008 * 1.06 });
    const crossing = start + 61 * MINUTE;
    await refreshAt(crossing);
    const bodies = await fired(accountId);
    expect(bodies).toHaveLength(1);
    expect(bodies[0].data.rule.id).toBe(view.id);
    expect(bodies[0].data.trigger.eventAt).toBe(new Date(crossing).toISOString());
    expect(bodies[0].data.derivatives).toMatchObject({ metric: 'open_interest', window: '1h' });
    expect(bodies[0].data.derivatives.changePct).toBeCloseTo(6, 3);
  });

  it('liquidations over a window sum the side asked for; the other side does not count', async () => {
    const longs = await rule({
      type: 'liquidations',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: 1_000_000, side: 'long', window: '1h' },
      trigger: { mode: 'every', cooldownSec: 60 },
    });
    const shorts = await rule({
      type: 'liquidations',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: 1_000_000, side: 'short', window: '1h' },
    });
    const any = await rule({
      type: 'liquidations',
      symbol: 'BTCUSDT',
      condition: { op: 'above', value: 1_000_000, side: 'any', window: '4h' },
    });
    const base = T0 + 3 * 60 * MINUTE;
    const reading = { fundingRate: 0.0001, openInterestUsd: 1e9 };
    script.set('BTCUSDT', reading, [
      liquidation('long', 600_000, base - 10_000),
      liquidation('short', 300_000, base - 5_000),
    ]);
    await refreshAt(base);
    for (const r of [longs, shorts, any]) expect(await fired(r.accountId)).toEqual([]);
    script.set('BTCUSDT', reading, [liquidation('long', 500_000, base + 50_000)]);
    await refreshAt(base + MINUTE);
    const long = await fired(longs.accountId);
    expect(long).toHaveLength(1);
    expect(long[0].data.trigger.value).toBe(1_100_000);
    expect(long[0].data.trigger.eventAt).toBe(new Date(base + MINUTE).toISOString());
    expect(long[0].data.derivatives).toMatchObject({ metric: 'liquidations', side: 'long', window: '1h' });
    expect(await fired(shorts.accountId)).toEqual([]);
    expect(await fired(any.accountId)).toHaveLength(1); // 1.4M of both sides
  });

  it('refuses a rule its source could never fire, naming the field', async () => {
    const caller = { accountId: 'usr_deriv_refused', plan: 'standard' };
    const problems = async (input: RuleInput) => {
      const error = await service.create(caller, input).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).errors;
    };
    // SOLUSDT is a supported symbol, but this source has no perpetual for it.
    expect(
      await problems({ type: 'funding', symbol: 'SOLUSDT', condition: { op: 'above', value: 10 } }),
    ).toEqual([{ pointer: '/body/symbol', message: expect.stringContaining('has no perpetual') }]);
    // Configured, but the refreshes so far found no venue listing it.
    expect(
      await problems({
        type: 'liquidations',
        symbol: 'XRPUSDT',
        condition: { op: 'above', value: 1, side: 'any', window: '1h' },
      }),
    ).toEqual([{ pointer: '/body/symbol', message: expect.stringContaining('no venue') }]);
    const replayLike = derivativesCoverage({ symbols: ['BTCUSDT'], metrics: ['funding'] }, derivatives);
    expect(replayLike.gap('BTCUSDT', 'liquidations')).toEqual({
      field: 'type',
      message: 'the simulated derivatives source publishes no liquidations',
    });
    expect(replayLike.gap('BTCUSDT', 'open_interest')?.field).toBe('type');
    expect(replayLike.gap('BTCUSDT', 'funding')).toBeUndefined();
  });
});
