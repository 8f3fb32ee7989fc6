import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaySource } from '../../src/adapters/market/replay/index.ts';
import { buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { jobRunner } from '../../src/app/jobs.ts';
import { createTestApp, fastHasher } from '../harness/app.ts';
import { waitFor } from '../harness/wait.ts';
import { openTestDatabase } from '../harness/db.ts';
import { sharedDataPresent } from '../harness/shared-data.ts';

const folder = resolve(process.cwd(), '../shared/data/market/binance-spot-2021');
const present = sharedDataPresent(
  'replay of the shared 2021 folder',
  resolve(folder, 'BTC_USDT-1m.json'),
  resolve(folder, 'BTC_USDT-5m.json'),
);
const y2021 = [Date.UTC(2021, 0, 1), Date.UTC(2022, 0, 1)] as const;

describe.skipIf(!present)('replay of the shared 2021 folder', () => {
  it('plays the longest recording per symbol (4 months of 5m, not 6 weeks of 1m) and names missing symbols', async () => {
    const source = await replaySource({
      folder,
      symbols: ['BTCUSDT', 'ETHUSDT', 'LINKUSDT'],
      speed: 60,
    });
    expect(source.symbols).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(source.missing).toEqual(['LINKUSDT']);
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      const s = source.series.get(symbol)!;
      expect(s.info.interval).toBe('5m');
      expect(s.bars[0]!.openTime).toBe(Date.UTC(2021, 0, 1));
      expect(s.bars.at(-1)!.openTime - s.bars[0]!.openTime).toBeGreaterThan(120 * 86_400_000);
    }
    // The replay clock, and so every time it stamps, is on the recording's clock.
    const now = source.clock!.now();
    expect(now).toBeGreaterThanOrEqual(y2021[0]);
    expect(now).toBeLessThan(y2021[1]);
    const history = [];
    for await (const chunk of source.backfill('binance', 'BTCUSDT', now - 3_600_000, now))
      history.push(...chunk);
    expect(history.length).toBeGreaterThan(40); // 5m bars rebuilt as 1m: a few minutes per bar carry trades
    expect(history.every((c) => c.openTime >= y2021[0] && c.openTime < y2021[1])).toBe(true);
  });

  it('refuses under strict when a configured symbol has no file, naming it', async () => {
    await expect(
      replaySource({ folder, symbols: ['BTCUSDT', 'LINKUSDT'], speed: 60, strict: true }),
    ).rejects.toThrow(/LINKUSDT/);
  });

  it('a database records its market source at first start; another source is refused unless derived data is reset', async () => {
    const db = await openTestDatabase('pglite');
    const replayEnv = { MERIDIAN_MARKET_SOURCE: `replay:${folder}`, MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT' };
    const options = { db, hasher: fastHasher, skipMigrations: true, checkDataSource: true };
    try {
      const first = await buildContainer(loadConfig(replayEnv), options);
      await first.close();
      // A forecast derived from the replay.
      await db.db
        .insertInto('predictions' as never)
        .values({
          symbol: 'BTCUSDT',
          horizon: '1h',
          generated_at: Date.UTC(2021, 3, 1),
          baseline: 1,
          prediction: 1,
          expected_move_pct: 0,
          confidence: 0.5,
          factors: JSON.stringify([]),
          quantiles: JSON.stringify({}),
          model_version: 'test',
          sigma: 0.01,
          sigma_rw: 0.01,
        } as never)
        .execute();
      // Same source again: fine.
      await (await buildContainer(loadConfig(replayEnv), options)).close();
      // The simulated source on the same data: refused with a message naming both and the way out.
      const simulated = { MERIDIAN_MARKET_SOURCE: 'simulated', MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT' };
      await expect(buildContainer(loadConfig(simulated), options)).rejects.toThrow(
        /first started with the market source replay:.*binance-spot-2021.*simulated.*--reset-derived/s,
      );
      const count = async () =>
        Number(
          (
            (await db.db
              .selectFrom('predictions' as never)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirst()) as {
              n: unknown;
            }
          ).n,
        );
      expect(await count()).toBe(1);
      // Told to: the derived data is cleared and the new source recorded.
      const reset = await buildContainer(
        loadConfig({ ...simulated, MERIDIAN_RESET_DERIVED: 'true' }),
        options,
      );
      await reset.close();
      expect(await count()).toBe(0);
      await (await buildContainer(loadConfig(simulated), options)).close();
    } finally {
      await db.close();
    }
  });

  it('one clock per deployment: every timestamp every endpoint shows is on the recording (2021)', async () => {
    const t = await createTestApp({
      env: {
        MERIDIAN_MARKET_SOURCE: `replay:${folder}`,
        MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
      },
    });
    const jobs = jobRunner(t.container.jobs, t.container.logger);
    try {
      await jobs.start();
      const user = await t.user('admin');
      const get = async (url: string) => {
        const res = await t.app.inject({ url, headers: user.auth });
        expect(res.statusCode, url).toBe(200);
        return res;
      };
      // Ready once warm-up is done; nothing is degraded by comparing recorded time with wall time.
      await t.container.market.service.windowsLoaded();
      await t.container.predictions.service.warmedUp();
      await waitFor(
        async () => ((await t.app.inject({ url: '/readyz' })).statusCode === 200 ? true : undefined),
        'warm-up to finish',
        120_000,
      );
      const flows = await waitFor(async () => {
        const body = (await get('/api/onchain/flows?hours=24')).json() as { data: unknown[] };
        return body.data.length ? body : undefined;
      }, 'flows from the simulated chain');
      const times: Array<[string, string]> = [];
      const collect = (where: string, value: unknown): void => {
        if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value))
          times.push([where, value]);
        else if (Array.isArray(value)) {
          for (const [i, v] of value.entries()) collect(`${where}[${i}]`, v);
        } else if (value && typeof value === 'object')
          for (const [k, v] of Object.entries(value)) collect(`${where}.${k}`, v);
      };
      collect('flows', flows);
      const flowsAnswer = await get('/api/onchain/flows?limit=1');
      expect(flowsAnswer.headers['meridian-source']).toBe('simulated');
      collect('flows Meridian-As-Of', flowsAnswer.headers['meridian-as-of']);
      const market = await get('/api/market-data');
      collect('market-data', market.json());
      collect('market-data Meridian-As-Of', market.headers['meridian-as-of']);
      collect('market-history', (await get('/api/market-history?symbol=BTCUSDT&interval=1h&limit=5')).json());
      const predictions = await get('/api/predictions?symbol=BTCUSDT&horizon=15m&include=backfilled');
      const points = (predictions.json() as { data: unknown[] }).data;
      // Nothing is published before a horizon's first fit (the replay's warm-up may not reach it): then the
      // answer must say it is still filling, never show placeholders.
      if (points.length === 0) expect(predictions.headers['meridian-backfilling']).toBe('true');
      collect('predictions', points);
      collect('predictions Meridian-As-Of', predictions.headers['meridian-as-of']);
      collect('ai-outlook', (await get('/api/predictions/ai-outlook?symbol=BTCUSDT')).json());
      collect('performance', (await get('/api/predictions/performance')).json());
      collect('readyz', (await t.app.inject({ url: '/readyz' })).json());
      for (const where of ['flows', 'market-data', 'market-history', 'predictions', 'ai-outlook'])
        expect(
          times.some(([w]) => w.startsWith(where)),
          `${where} shows a time`,
        ).toBe(true);
      const outside = times.filter(([, v]) => !(Date.parse(v) >= y2021[0] && Date.parse(v) < y2021[1]));
      expect(outside).toEqual([]);
      const readiness = (await t.app.inject({ url: '/readyz' })).json() as {
        components: Record<string, { status: string }>;
      };
      expect(readiness.components.market?.status, JSON.stringify(readiness)).toBe('ok');
      expect(readiness.components.model?.status).toBe('ok');
    } finally {
      await jobs.stop();
      await t.close();
    }
  }, 240_000);
});
