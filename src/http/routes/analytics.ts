import { Type } from 'typebox';
import type { AnalyticsService } from '../../modules/analytics/index.ts';
import { authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { PortfolioTotalsSchema } from './portfolio.schemas.ts';
import { sendBytes } from '../reply.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const Pct = Type.Union([Type.Number(), Type.Null()]);
const count = Type.Integer({ minimum: 0 });

const Analytics = Type.Object(
  {
    generatedAt: Type.String({
      format: 'date-time',
      description: 'ISO 8601 UTC with milliseconds: when this answer was computed',
    }),
    portfolio: Type.Object({
      ...PortfolioTotalsSchema.properties,
      allocation: Type.Array(
        Type.Object({
          asset: Type.String(),
          valueUsd: Type.Union([Type.String(), Type.Null()]),
          allocationPct: Pct,
        }),
      ),
    }),
    alerts: Type.Object({
      byState: Type.Object({
        active: count,
        paused: count,
        triggered: count,
        expired: count,
        failing: count,
      }),
      recentTriggers: Type.Array(
        Type.Object({
          triggerId: Type.String(),
          ruleId: Type.String(),
          ruleName: Type.Union([Type.String(), Type.Null()]),
          type: Type.Union([Type.Literal('price'), Type.Literal('volume'), Type.Literal('address_flow')]),
          firedAt: Type.String({ format: 'date-time' }),
          eventId: Type.String(),
          test: Type.Boolean(),
        }),
      ),
    }),
    usage: Type.Object({
      window: Type.Object({
        from: Type.String({ format: 'date-time' }),
        to: Type.String({ format: 'date-time' }),
      }),
      requests: count,
      rateLimited: Type.Integer({ minimum: 0, description: 'Requests answered 429' }),
      byEndpoint: Type.Array(Type.Object({ endpoint: Type.String(), requests: count, rateLimited: count })),
      flushIntervalMs: Type.Integer({ description: "Other replicas' requests appear within this long" }),
      plan: Type.String(),
      limit: Type.Object({ requests: Type.Integer(), windowSeconds: Type.Integer() }),
      remaining: Type.Integer({ description: 'Requests left in the current rate-limit window' }),
      tokens: Type.Object({
        active: count,
        items: Type.Array(
          Type.Object({
            id: Type.String(),
            name: Type.String(),
            start: Type.String(),
            lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
            expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
          }),
        ),
      }),
    }),
    forecasts: Type.Object({
      horizons: Type.Array(
        Type.Object({
          horizon: Type.String(),
          scored: count,
          symbols: count,
          hitRate: Type.Number(),
          calibrationError: Type.Number({ description: 'Expected calibration error of the confidence' }),
          crpsSkill: Type.Number({ description: 'CRPS skill versus a random walk (> 0 is better)' }),
          brier: Type.Number(),
        }),
      ),
      modelVersion: Type.String(),
      asOf: Type.String({ format: 'date-time' }),
    }),
  },
  { $id: 'DashboardAnalytics' },
);

/** GET /api/dashboard/analytics — the signed-in account's summary metrics. */
export interface AnalyticsRouteDeps {
  analytics: Pick<AnalyticsService, 'dashboard'>;
}

export function analyticsRoutes(deps: AnalyticsRouteDeps): RouteModule {
  const { analytics } = deps;
  return async (app) => {
    app.get(
      '/api/dashboard/analytics',
      {
        config: { permission: 'account:read' },
        schema: {
          operationId: 'getDashboardAnalytics',
          tags: ['analytics'],
          summary: 'Portfolio value and P&L, alerts, API usage (24 h) and the forecast track record',
          response: { 200: Analytics, ...authProblems },
        },
      },
      async (request, reply) => {
        const p = request.principal!;
        const body = await analytics.dashboard({ accountId: p.userId, plan: p.plan, rateLimit: p.rateLimit });
        return sendBytes(reply.type(JSON_TYPE), body);
      },
    );
  };
}
