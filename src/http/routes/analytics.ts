import { Type } from 'typebox';
import { RULE_TYPES } from '../../modules/alerts/index.ts';
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
        capped: Type.Integer({ minimum: 0, description: 'Active rules whose hourly message cap holds now' }),
      }),
      recentTriggers: Type.Array(
        Type.Object({
          triggerId: Type.String(),
          ruleId: Type.String(),
          ruleName: Type.Union([Type.String(), Type.Null()]),
          type: Type.Union(RULE_TYPES.map((t) => Type.Literal(t))),
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

const countOf = Type.Integer({ minimum: 0 });
const usagePeriod = (description: string, fromDescription: string) =>
  Type.Object(
    {
      from: Type.String({ format: 'date-time', description: fromDescription }),
      to: Type.String({ format: 'date-time' }),
      requests: countOf,
      rateLimited: Type.Integer({ minimum: 0, description: 'Requests answered 429' }),
      byEndpoint: Type.Array(
        Type.Object({ endpoint: Type.String(), requests: countOf, rateLimited: countOf }),
      ),
      byClient: Type.Array(UsageClient),
    },
    { description },
  );
const UsageClient = Type.Object({
  client: Type.Union(
    [Type.Literal('console'), Type.Literal('token'), Type.Literal('oauth'), Type.Literal('other')],
    {
      description:
        "console: the web console (a session); token: one of the account's API tokens; oauth: an OAuth client's access tokens, added up; other: counted before clients were recorded",
    },
  ),
  tokenId: Type.Union([Type.String(), Type.Null()]),
  tokenName: Type.Union([Type.String(), Type.Null()], {
    description: "The token's name (null once deleted)",
  }),
  oauthClient: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()], {
    description: 'For oauth: the OAuth client (application) the account authorized',
  }),
  requests: countOf,
  rateLimited: countOf,
});
const CurrentWindow = usagePeriod(
  "Requests and 429s in the rate limit's current 60-second window, counted per second over every API replica: this process's own requests at once, other replicas' within flushIntervalMs",
  'Start of the oldest second counted: the seconds overlapping the sliding window (at most one second more than it)',
);
const Last24h = usagePeriod('The last 24 hours', 'Start of the oldest 10-minute bucket counted');
const Last30d = usagePeriod('The last 30 UTC days, today included', 'Start of the oldest UTC day counted');

const AccountUsage = Type.Object(
  {
    generatedAt: Type.String({ format: 'date-time' }),
    plan: Type.String(),
    quota: Type.Object(
      {
        limit: Type.Integer({ description: 'Requests per window (the plan or a per-account override)' }),
        windowSeconds: Type.Integer(),
        used: countOf,
        remaining: countOf,
        resetAt: Type.String({
          format: 'date-time',
          description:
            'When the oldest request in the window leaves it (one more becomes available); now when none is counted',
        }),
      },
      {
        description:
          "The account's rate limit now (a sliding 60-second window shared by its tokens and sessions)",
      },
    ),
    currentWindow: CurrentWindow,
    last24h: Last24h,
    last30d: Last30d,
    flushIntervalMs: Type.Integer({ description: "Other replicas' requests appear within this long" }),
  },
  { $id: 'AccountUsage' },
);

/** GET /api/dashboard/analytics — the signed-in account's summary metrics; GET /api/account/usage. */
export interface AnalyticsRouteDeps {
  analytics: Pick<AnalyticsService, 'dashboard' | 'usage'>;
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
        const body = await analytics.dashboard({ accountId: p.orgId, plan: p.plan, rateLimit: p.rateLimit });
        return sendBytes(reply.type(JSON_TYPE), body);
      },
    );
    app.get(
      '/api/account/usage',
      {
        config: { permission: 'account:read' },
        schema: {
          operationId: 'getAccountUsage',
          tags: ['account'],
          summary:
            'Quota now (used, remaining, reset) and requests and 429s by endpoint and by client: current window, 24 h, 30 days',
          response: { 200: AccountUsage, ...authProblems },
        },
      },
      async (request, reply) => {
        const p = request.principal!;
        reply.header('cache-control', 'no-store');
        return analytics.usage({ accountId: p.orgId, plan: p.plan, rateLimit: p.rateLimit });
      },
    );
  };
}
