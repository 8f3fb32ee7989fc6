import type { Clock } from '../../shared/clock.ts';
import {
  type AlertsSummarySource,
  type OAuthClientsSource,
  type PortfolioSummarySource,
  type RateLimitSource,
  type TokensSource,
  type TrackRecordSource,
  type UsageSource,
  type UsageTotalsView,
  noAlerts,
} from './ports.ts';
import { summarizeTrackRecord } from './track-record.ts';

export interface AnalyticsDeps {
  portfolio: PortfolioSummarySource;
  /** Optional until an alerts module is wired: without it, zero counts and no triggers. */
  alerts?: AlertsSummarySource;
  usage: UsageSource;
  tokens: TokensSource;
  /** Names OAuth access tokens in usage by their client; without it they are listed as tokens. */
  oauthClients?: OAuthClientsSource;
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
    const [portfolio, alertSummary, usage, tokens, window] = await Promise.all([
      deps.portfolio.summary(accountId),
      alerts.summarize(accountId, recent),
      deps.usage.totals(accountId),
      deps.tokens.listTokens(accountId),
      deps.limits.window(accountId),
    ]);
    const remaining = Math.max(0, account.rateLimit - window.used);
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
    /**
     * GET /api/account/usage: quota now, and requests by endpoint and by client over the current rate-limit
     * window, 24 h and 30 days.
     */
    async usage(account: AnalyticsAccount): Promise<AccountUsage> {
      const now = deps.clock.now();
      const [current, day, month, window, tokens] = await Promise.all([
        deps.usage.currentWindow(account.accountId),
        deps.usage.totals(account.accountId),
        deps.usage.days(account.accountId),
        deps.limits.window(account.accountId),
        deps.tokens.listTokens(account.accountId),
      ]);
      const names = new Map(tokens.map((t) => [t.id, t.name]));
      const unnamed = new Set<string>();
      for (const totals of [current, day, month])
        for (const c of totals.byClient)
          if (c.client.startsWith('tok_') && !names.has(c.client)) unnamed.add(c.client);
      const oauth =
        unnamed.size && deps.oauthClients
          ? await deps.oauthClients.clientsOfTokens(account.accountId, [...unnamed])
          : new Map<string, { id: string; name: string }>();
      const period = (totals: UsageTotalsView) => ({
        from: new Date(totals.since).toISOString(),
        to: new Date(now).toISOString(),
        requests: totals.requests,
        rateLimited: totals.rateLimited,
        byEndpoint: totals.byEndpoint,
        byClient: byClientOf(totals.byClient, names, oauth),
      });
      const remaining = Math.max(0, account.rateLimit - window.used);
      return {
        generatedAt: new Date(now).toISOString(),
        plan: account.plan,
        quota: {
          limit: account.rateLimit,
          windowSeconds: 60,
          used: Math.min(window.used, account.rateLimit),
          remaining,
          resetAt: new Date(now + window.oldestLeavesInMs).toISOString(),
        },
        currentWindow: period(current),
        last24h: period(day),
        last30d: period(month),
        flushIntervalMs: deps.usageFlushMs,
      };
    },
    /** Drops an account's cached answer (its portfolio changed). */
    invalidate(accountId: string): void {
      cache.delete(accountId);
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

export interface UsageByClient {
  client: 'console' | 'token' | 'oauth' | 'other';
  tokenId: string | null;
  tokenName: string | null;
  /** For `oauth`: the OAuth client whose access tokens made these requests (all of them, added up). */
  oauthClient: { id: string; name: string } | null;
  requests: number;
  rateLimited: number;
}

export interface UsagePeriod {
  from: string;
  to: string;
  requests: number;
  rateLimited: number;
  byEndpoint: Array<{ endpoint: string; requests: number; rateLimited: number }>;
  byClient: UsageByClient[];
}

export interface AccountUsage {
  generatedAt: string;
  plan: string;
  quota: { limit: number; windowSeconds: number; used: number; remaining: number; resetAt: string };
  currentWindow: UsagePeriod;
  last24h: UsagePeriod;
  last30d: UsagePeriod;
  flushIntervalMs: number;
}

type Counted = { client: string; requests: number; rateLimited: number };
const byCount = (a: UsageByClient, b: UsageByClient) => b.requests - a.requests;

/** Each client as the API names it; an OAuth client's access tokens are added up under the client. */
function byClientOf(
  counted: readonly Counted[],
  names: ReadonlyMap<string, string>,
  oauth: ReadonlyMap<string, { id: string; name: string }>,
): UsageByClient[] {
  const out: UsageByClient[] = [];
  const apps = new Map<string, UsageByClient>();
  for (const c of counted) {
    const app = oauth.get(c.client);
    if (!app) {
      out.push(clientOf(c, names));
      continue;
    }
    const found = apps.get(app.id);
    if (found) {
      found.requests += c.requests;
      found.rateLimited += c.rateLimited;
    } else {
      const entry: UsageByClient = {
        client: 'oauth',
        tokenId: null,
        tokenName: null,
        oauthClient: { id: app.id, name: app.name },
        requests: c.requests,
        rateLimited: c.rateLimited,
      };
      apps.set(app.id, entry);
      out.push(entry);
    }
  }
  return apps.size ? out.sort(byCount) : out;
}

function clientOf(c: Counted, names: ReadonlyMap<string, string>): UsageByClient {
  const counts = { oauthClient: null, requests: c.requests, rateLimited: c.rateLimited };
  if (c.client === 'console') return { client: 'console', tokenId: null, tokenName: null, ...counts };
  if (c.client.startsWith('tok_'))
    return { client: 'token', tokenId: c.client, tokenName: names.get(c.client) ?? null, ...counts };
  // Counted before clients were recorded.
  return { client: 'other', tokenId: null, tokenName: null, ...counts };
}
