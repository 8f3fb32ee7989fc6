import { describe, expect, it } from 'vitest';
import { manualClock } from '../../shared/clock.ts';
import type { AlertsSummarySource } from './ports.ts';
import { createAnalyticsService } from './service.ts';

const START = Date.UTC(2026, 2, 1, 12, 0, 0, 5);

function setup(alerts?: AlertsSummarySource) {
  const clock = manualClock(START);
  const calls = { portfolio: 0 };
  const service = createAnalyticsService({
    clock,
    cacheMs: 1000,
    usageFlushMs: 10_000,
    alerts,
    portfolio: {
      summary: async () => {
        calls.portfolio++;
        return {
          totals: {
            valueUsd: '150.00',
            costBasisUsd: '100.00',
            unrealizedPnlUsd: '50.00',
            unrealizedPnlPct: 50,
            change24hUsd: '0.00',
            change24hPct: 0,
            unpricedAssets: [],
            assetsWithoutCost: [],
          },
          allocation: [{ asset: 'BTC', valueUsd: '150.00', allocationPct: 100 }],
        };
      },
    },
    usage: {
      currentWindow: async () => ({
        since: START - 60_000,
        requests: 9,
        rateLimited: 1,
        byEndpoint: [{ endpoint: 'GET /api/portfolio', requests: 9, rateLimited: 1 }],
        byClient: [
          { client: 'tok_oa1', requests: 4, rateLimited: 1 },
          { client: 'console', requests: 3, rateLimited: 0 },
          { client: 'tok_oa2', requests: 2, rateLimited: 0 },
        ],
      }),
      totals: async () => ({
        since: START - 86_400_000,
        requests: 12,
        rateLimited: 2,
        byEndpoint: [{ endpoint: 'GET /api/portfolio', requests: 12, rateLimited: 2 }],
        byClient: [
          { client: 'tok_1', requests: 9, rateLimited: 2 },
          { client: 'console', requests: 3, rateLimited: 0 },
        ],
      }),
      days: async () => ({
        since: START - 29 * 86_400_000,
        requests: 40,
        rateLimited: 2,
        byEndpoint: [{ endpoint: 'GET /api/portfolio', requests: 40, rateLimited: 2 }],
        byClient: [
          { client: 'tok_1', requests: 30, rateLimited: 2 },
          { client: 'console', requests: 9, rateLimited: 0 },
          { client: 'unknown', requests: 1, rateLimited: 0 },
        ],
      }),
    },
    tokens: {
      listTokens: async () => [
        { id: 'tok_1', name: 'bot', start: 'mrd_ab…', status: 'active', lastUsedAt: null, expiresAt: null },
        { id: 'tok_2', name: 'old', start: 'mrd_cd…', status: 'revoked', lastUsedAt: null, expiresAt: null },
      ],
    },
    oauthClients: {
      clientsOfTokens: async (accountId, ids) => {
        expect(accountId).toBe('usr_a');
        const app = { id: 'oac_1', name: 'Trading app' };
        return new Map(ids.filter((id) => id.startsWith('tok_oa')).map((id) => [id, app]));
      },
    },
    limits: { window: async () => ({ used: 3, oldestLeavesInMs: 42_000 }) },
    trackRecord: {
      trackRecord: () => ({
        rows: [
          {
            symbol: 'BTCUSDT',
            horizon: '1h',
            count: 30,
            hitRate: 0.6,
            brier: 0.2,
            crpsSkillVsRandomWalk: 0.1,
            ece: 0.05,
          },
          {
            symbol: 'ETHUSDT',
            horizon: '1h',
            count: 10,
            hitRate: 0.4,
            brier: 0.3,
            crpsSkillVsRandomWalk: -0.1,
            ece: 0.15,
          },
          {
            symbol: 'BTCUSDT',
            horizon: '15m',
            count: 5,
            hitRate: 0.5,
            brier: 0.25,
            crpsSkillVsRandomWalk: 0,
            ece: 0.1,
          },
        ],
        modelVersion: 'm1',
        generatedAt: new Date(START).toISOString(),
      }),
    },
  });
  return { clock, service, calls };
}

const account = { accountId: 'usr_a', plan: 'standard', rateLimit: 120 };

describe('dashboard analytics', () => {
  it('composes the account summary, with alert counts and triggers from the alerts port', async () => {
    const alerts: AlertsSummarySource = {
      summarize: async (accountId, recentLimit) => {
        expect(accountId).toBe('usr_a');
        expect(recentLimit).toBe(10);
        return {
          byState: { active: 3, paused: 1, triggered: 2, expired: 0, failing: 1 },
          recentTriggers: [
            {
              triggerId: 'trg_1',
              ruleId: 'alr_1',
              ruleName: 'BTC breaks 100k',
              type: 'price',
              firedAt: '2026-03-01T11:59:00.000Z',
              eventId: 'evt_1',
              test: false,
            },
          ],
        };
      },
    };
    const { service } = setup(alerts);
    const body = JSON.parse((await service.dashboard(account)).toString());
    expect(body.generatedAt).toBe('2026-03-01T12:00:00.005Z');
    expect(body.alerts.byState).toEqual({ active: 3, paused: 1, triggered: 2, expired: 0, failing: 1 });
    expect(body.alerts.recentTriggers[0].ruleName).toBe('BTC breaks 100k');
    expect(body.usage).toMatchObject({
      requests: 12,
      rateLimited: 2,
      plan: 'standard',
      limit: { requests: 120, windowSeconds: 60 },
      remaining: 117,
      tokens: { active: 1 },
    });
    expect(body.usage.tokens.items.map((t: { id: string }) => t.id)).toEqual(['tok_1']);
    expect(body.portfolio).toMatchObject({ valueUsd: '150.00', unrealizedPnlPct: 50 });
    // Count-weighted per horizon, shortest horizon first.
    expect(body.forecasts.horizons).toEqual([
      {
        horizon: '15m',
        scored: 5,
        symbols: 1,
        hitRate: 0.5,
        calibrationError: 0.1,
        crpsSkill: 0,
        brier: 0.25,
      },
      {
        horizon: '1h',
        scored: 40,
        symbols: 2,
        hitRate: 0.55,
        calibrationError: 0.075,
        crpsSkill: 0.05,
        brier: 0.225,
      },
    ]);
  });

  it('reports zero alerts without an alerts source', async () => {
    const { service } = setup();
    const body = JSON.parse((await service.dashboard(account)).toString());
    expect(body.alerts).toEqual({
      byState: { active: 0, paused: 0, triggered: 0, expired: 0, failing: 0 },
      recentTriggers: [],
    });
  });

  it('reuses an answer for cacheMs and recomputes after a portfolio change or when it is older', async () => {
    const { service, clock, calls } = setup();
    const first = await service.dashboard(account);
    clock.advance(999);
    expect(await service.dashboard(account)).toBe(first);
    expect(calls.portfolio).toBe(1);
    service.invalidate('usr_a');
    await service.dashboard(account);
    expect(calls.portfolio).toBe(2);
    clock.advance(1000);
    const later = JSON.parse((await service.dashboard(account)).toString());
    expect(calls.portfolio).toBe(3);
    expect(later.generatedAt).toBe(new Date(START + 1999).toISOString());
  });

  it('answers usage: the quota now with its reset, and 24 h / 30 days by endpoint and by client, tokens named', async () => {
    const { service } = setup();
    const usage = await service.usage(account);
    expect(usage.quota).toEqual({
      limit: 120,
      windowSeconds: 60,
      used: 3,
      remaining: 117,
      resetAt: new Date(Date.parse(usage.generatedAt) + 42_000).toISOString(),
    });
    expect(usage.last24h).toMatchObject({ requests: 12, rateLimited: 2 });
    expect(usage.last24h.byClient).toEqual([
      { client: 'token', tokenId: 'tok_1', tokenName: 'bot', oauthClient: null, requests: 9, rateLimited: 2 },
      { client: 'console', tokenId: null, tokenName: null, oauthClient: null, requests: 3, rateLimited: 0 },
    ]);
    // An OAuth client's access tokens are one client, named by the OAuth client.
    expect(usage.currentWindow).toMatchObject({ from: new Date(START - 60_000).toISOString(), requests: 9 });
    expect(usage.currentWindow.byClient).toEqual([
      {
        client: 'oauth',
        tokenId: null,
        tokenName: null,
        oauthClient: { id: 'oac_1', name: 'Trading app' },
        requests: 6,
        rateLimited: 1,
      },
      { client: 'console', tokenId: null, tokenName: null, oauthClient: null, requests: 3, rateLimited: 0 },
    ]);
    expect(usage.last30d.from).toBe(new Date(START - 29 * 86_400_000).toISOString());
    expect(usage.last30d.byClient.map((c) => c.client)).toEqual(['token', 'console', 'other']);
    expect(usage.flushIntervalMs).toBe(10_000);
  });
});
