/** Dashboard analytics: the account's summary, composed from other modules through the ports in ports.ts. */
export {
  type AlertsSummary,
  type AlertsSummarySource,
  type OAuthClientsSource,
  type PortfolioSummarySource,
  type RateLimitSource,
  type TokensSource,
  type TrackRecordSource,
  type UsageSource,
  noAlerts,
} from './ports.ts';
export {
  type AnalyticsAccount,
  type AnalyticsDeps,
  type AnalyticsService,
  createAnalyticsService,
} from './service.ts';
export { summarizeTrackRecord } from './track-record.ts';
