/**
 * What the dashboard reads from other modules, each through a narrow port so this module depends on no
 * other module's internals (and tests pass fakes).
 */

/** Alert counts by state and the account's most recent triggers (the alerts module implements it). */
export interface AlertsSummarySource {
  summarize(
    accountId: string,
    recentLimit: number,
  ): Promise<{
    byState: { active: number; paused: number; triggered: number; expired: number; failing: number };
    recentTriggers: Array<{
      triggerId: string;
      ruleId: string;
      ruleName: string | null;
      type:
        | 'price'
        | 'volume'
        | 'address_flow'
        | 'funding'
        | 'open_interest'
        | 'liquidations'
        | 'probability';
      firedAt: string;
      eventId: string;
      test: boolean;
    }>;
  }>;
}

export type AlertsSummary = Awaited<ReturnType<AlertsSummarySource['summarize']>>;

/** Until an alerts module is wired: no rules, so zero counts and no triggers (true, not a guess). */
export const noAlerts: AlertsSummarySource = {
  summarize: async () => ({
    byState: { active: 0, paused: 0, triggered: 0, expired: 0, failing: 0 },
    recentTriggers: [],
  }),
};

/** The account's portfolio, valued (the portfolio module's holdings, already in API shape). */
export interface PortfolioSummarySource {
  summary(accountId: string): Promise<{
    totals: {
      valueUsd: string;
      costBasisUsd: string;
      unrealizedPnlUsd: string;
      unrealizedPnlPct: number | null;
      change24hUsd: string;
      change24hPct: number | null;
      unpricedAssets: string[];
      assetsWithoutCost: string[];
    };
    allocation: Array<{ asset: string; valueUsd: string | null; allocationPct: number | null }>;
  }>;
}

/** Requests and 429s per endpoint and per client (the usage counter). */
export interface UsageTotalsView {
  since: number;
  requests: number;
  rateLimited: number;
  byEndpoint: Array<{ endpoint: string; requests: number; rateLimited: number }>;
  /** `client`: `console` (console sessions) or an API token's id. */
  byClient: Array<{ client: string; requests: number; rateLimited: number }>;
}

export interface UsageSource {
  /** The last 24 h. */
  totals(accountId: string): Promise<UsageTotalsView>;
  /** The rate limiter's current 60-second window (to the second). */
  currentWindow(accountId: string): Promise<UsageTotalsView>;
  /** The last 30 UTC days, today included. */
  days(accountId: string): Promise<UsageTotalsView>;
}

/** One API token as the dashboard shows it. */
export interface TokenSummary {
  id: string;
  name: string;
  start: string;
  status: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

/** The account's API tokens (the accounts module). */
export interface TokensSource {
  listTokens(accountId: string): Promise<TokenSummary[]>;
}

/** The OAuth client behind each of an account's OAuth access tokens `tokenIds`, by token id (others absent). */
export interface OAuthClientsSource {
  clientsOfTokens(
    accountId: string,
    tokenIds: readonly string[],
  ): Promise<ReadonlyMap<string, { id: string; name: string }>>;
}

/** The account's current rate-limit window: requests used, and when the oldest of them leaves it. */
export interface RateLimitSource {
  window(accountId: string): Promise<{ used: number; oldestLeavesInMs: number }>;
}

/** The scored forecast record per symbol and horizon (the predictions module's performance read model). */
export interface TrackRecordSource {
  trackRecord(): {
    rows: Array<{
      symbol: string;
      horizon: string;
      count: number;
      hitRate: number;
      brier: number;
      crpsSkillVsRandomWalk: number;
      ece: number;
    }>;
    modelVersion: string;
    generatedAt: string;
  };
}
