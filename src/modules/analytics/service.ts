import type { Clock } from '../../shared/clock.ts';
import {
  type AlertsSummarySource,
  type PortfolioSummarySource,
  type RateLimitSource,
  type TokensSource,
  type TrackRecordSource,
  type UsageSource,
  noAlerts,
} from './ports.ts';
import { summarizeTrackRecord } from './track-record.ts';

export interface AnalyticsDeps {
  portfolio: PortfolioSummarySource;
  /** Optional until an alerts module is wired: without it, zero counts and no triggers. */
  alerts?: AlertsSummarySource;
  usage: UsageSource;
  tokens: TokensSource;
  limits: RateLimitSource;
  trackRecord: TrackRecordSource;
  clock: Clock;
  /** An account's answer is reused for this long (its `generatedAt` says when it was computed). */
  cacheMs: number;
  /** How often usage counts reach storage (reported, so readers know how exact the counts are). */
  usageFlushMs: number;
  recentTriggers?: number;
}

/** Who asks: the account and its plan's limit (from the authenticated principal). */
export interface AnalyticsAccount {
  accountId: string;
  plan: string;
  /** Requests per 60-second window. */
  rateLimit: number;
}

const MAX_CACHED_ACCOUNTS = 10_000;

/**
 * GET /api/dashboard/analytics: the signed-in account's summary. Built from the portfolio, alerts, usage,
 * tokens and forecast track record, serialized once, and reused for `cacheMs` (a dashboard polls; the
 * answer says when it was generated). A change to the account's portfolio drops its cached answer.
 */
export function createAnalyticsService(deps: AnalyticsDeps) {
  const alerts = deps.alerts ?? noAlerts;
  const recent = deps.recentTriggers ?? 10;
  const cache = new Map<string, { at: number; body: Promise<Buffer> }>();

  async function build(account: AnalyticsAccount): Promise<Buffer> {
    const { accountId } = account;
    const generatedAt = deps.clock.now();
    const [portfolio, alertSummary, usage, tokens, remaining] = await Promise.all([
      deps.portfolio.summary(accountId),
      alerts.summarize(accountId, recent),
      deps.usage.totals(accountId),
      deps.tokens.listTokens(accountId),
      deps.limits.remaining(accountId, account.rateLimit),
    ]);
    const active = tokens.filter((t) => t.status === 'active');
    const body = {
      generatedAt: new Date(generatedAt).toISOString(),
      portfolio: { ...portfolio.totals, allocation: portfolio.allocation },
      alerts: { byState: alertSummary.byState, recentTriggers: alertSummary.recentTriggers },
      usage: {
        window: { from: new Date(usage.since).toISOString(), to: new Date(generatedAt).toISOString() },
        requests: usage.requests,
        rateLimited: usage.rateLimited,
        byEndpoint: usage.byEndpoint,
        flushIntervalMs: deps.usageFlushMs,
        plan: account.plan,
        limit: { requests: account.rateLimit, windowSeconds: 60 },
        remaining,
        tokens: {
          active: active.length,
          items: active.map((t) => ({
            id: t.id,
            name: t.name,
            start: t.start,
            lastUsedAt: t.lastUsedAt,
            expiresAt: t.expiresAt,
          })),
        },
      },
      forecasts: summarizeTrackRecord(deps.trackRecord.trackRecord()),
    };
    return Buffer.from(JSON.stringify(body));
  }

  return {
    /** The account's dashboard summary as JSON bytes. */
    dashboard(account: AnalyticsAccount): Promise<Buffer> {
      const now = deps.clock.now();
      const hit = cache.get(account.accountId);
      if (hit && now - hit.at < deps.cacheMs) return hit.body;
      if (cache.size >= MAX_CACHED_ACCOUNTS) cache.clear();
      const body = build(account);
      cache.set(account.accountId, { at: now, body });
      body.catch(() => {
        // A failed build is not reused; the caller gets the error through its own await.
        if (cache.get(account.accountId)?.body === body) cache.delete(account.accountId);
      });
      return body;
    },
    /** Drops an account's cached answer (its portfolio changed). */
    invalidate(accountId: string): void {
      cache.delete(accountId);
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
