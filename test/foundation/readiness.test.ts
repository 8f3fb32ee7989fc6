import { describe, expect, it } from 'vitest';
import { indexerHealth, marketHealth, modelHealth } from '../../src/app/health.ts';
import { summarize } from '../../src/shared/readiness.ts';
import { createTestApp } from '../harness/app.ts';
import { waitFor } from '../harness/wait.ts';

const NOW = Date.UTC(2026, 0, 1);
const venue = (name: string, stale: boolean) => ({
  venue: name,
  stale,
  updatedAt: stale ? NOW - 60_000 : NOW,
});

describe('readiness components', () => {
  it('market: ok when every venue is live; degraded naming the stale venue and its symbols', () => {
    const fresh = { mid: 1, venues: [venue('binance', false), venue('okx', false)], updatedAt: NOW };
    expect(marketHealth(['BTCUSDT'], () => fresh, NOW)?.status).toBe('ok');
    const sick = { mid: 1, venues: [venue('binance', true), venue('okx', false)], updatedAt: NOW };
    const dead = { mid: null, venues: [venue('binance', true)], updatedAt: NOW - 90_000 };
    const h = marketHealth(['BTCUSDT', 'ETHUSDT'], (s) => (s === 'BTCUSDT' ? sick : dead), NOW)!;
    expect(h.status).toBe('degraded');
    expect(h.reason).toBe('binance stale (BTCUSDT, ETHUSDT); no price for ETHUSDT');
    expect(h.details).toMatchObject({ snapshotAgeSeconds: 90, staleVenues: 1, outlierVenues: 0 });
    expect(marketHealth(['BTCUSDT'], () => undefined, NOW)).toBeUndefined();
  });

  it('indexer: degraded with the node error and the lag in blocks and in seconds', () => {
    const base = {
      running: true,
      head: 120,
      checkpoint: 100,
      checkpointTime: NOW - 240_000,
      consecutiveErrors: 0,
      lastError: null,
    };
    expect(indexerHealth(base, NOW)).toEqual({
      status: 'ok',
      details: { head: 120, checkpoint: 100, lagBlocks: 20, lagSeconds: 240 },
    });
    expect(indexerHealth({ ...base, checkpointTime: null }, NOW)?.details?.lagSeconds).toBeNull();
    const failing = indexerHealth({ ...base, consecutiveErrors: 3, lastError: 'connect ECONNREFUSED' }, NOW)!;
    expect(failing.status).toBe('degraded');
    expect(failing.reason).toContain('ECONNREFUSED');
    expect(indexerHealth({ ...base, running: false }, NOW)).toBeUndefined();
  });

  it('model: an API replica whose refreshes stopped coming asks whether a worker runs', () => {
    expect(modelHealth({ phase: 'following', lastRefresh: NOW - 60_000 }, 60_000, NOW)?.status).toBe('ok');
    const late = modelHealth({ phase: 'following', lastRefresh: NOW - 400_000 }, 60_000, NOW)!;
    expect(late).toMatchObject({ status: 'degraded', details: { lastRefreshAgeSeconds: 400 } });
    expect(late.reason).toContain('worker');
    // Where the refresh runs: its duration and the scored record's size are figures of the component too.
    expect(
      modelHealth(
        { phase: 'running', lastRefresh: NOW - 1_000, lastRefreshDurationMs: 180, scoredRecords: 4200 },
        60_000,
        NOW,
      ),
    ).toEqual({
      status: 'ok',
      details: { lastRefreshAgeSeconds: 1, lastRefreshDurationMs: 180, scoredRecords: 4200 },
    });
    expect(modelHealth({ phase: 'idle', lastRefresh: null }, 60_000, NOW)).toBeUndefined();
  });

  it('only storage down or start-up work unfinished makes a process unready', () => {
    expect(
      summarize({ storage: { status: 'ok' }, redis: { status: 'degraded', reason: 'x' } }, false).status,
    ).toBe('degraded');
    expect(summarize({ storage: { status: 'down', reason: 'gone' } }, false).status).toBe('unready');
    expect(summarize({ storage: { status: 'ok' } }, true).status).toBe('unready');
    expect(summarize({ storage: { status: 'ok' } }, false)).toEqual({
      status: 'ready',
      components: { storage: { status: 'ok' } },
      checks: { storage: null },
    });
  });
});

describe('/readyz', () => {
  it('is 503 while the stored record loads, degraded (200) while symbols warm up, then ready with the model ok', async () => {
    // Two symbols, not the default seven: the phases are the same, and each symbol's warm-up is seconds of CPU.
    const t = await createTestApp({ env: { MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT' } });
    try {
      const service = t.container.predictions.service;
      // With the market feed running, each symbol waits for its history window: warming lasts seconds.
      await t.container.market.service.start();
      await service.start();
      const during = await t.app.inject({ url: '/readyz' });
      // Still loading the stored record (unready), or warming symbols up: never ready before every one is warm.
      expect(during.json().components.model).toMatchObject({ status: 'degraded' });
      expect(during.json().status).toBe(during.statusCode === 503 ? 'unready' : 'degraded');
      const warming = await waitFor(async () => {
        if (service.status().phase !== 'warming') return undefined;
        return (await t.app.inject({ url: '/readyz' })).json() as {
          status: string;
          components: { model: { reason: string } };
        };
      }, 'the warming phase');
      expect(warming.status).toBe('degraded');
      expect(warming.components.model.reason).toMatch(/warming up: \d+ of 2 symbols forecast/);
      await service.warmedUp();
      const after = await t.app.inject({ url: '/readyz' });
      expect(after.statusCode).toBe(200);
      expect(after.json().components.model).toMatchObject({ status: 'ok' });
      expect(after.json().components.storage).toEqual({ status: 'ok' });
    } finally {
      await t.container.predictions.service.stop();
      await t.container.market.service.stop();
      await t.close();
    }
  }, 120_000);
});
