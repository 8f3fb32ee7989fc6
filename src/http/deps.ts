import type { Config } from '../config/env.ts';
import type { AuditService } from '../modules/audit/index.ts';
import type { AccountsService, SsoProvider } from '../modules/accounts/index.ts';
import type { OAuthService } from '../modules/oauth/index.ts';
import type { SupportedSymbols } from '../modules/identifiers/index.ts';
import type { ReadinessReport } from '../shared/readiness.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Bus } from '../shared/bus.ts';
import type { Clock } from '../shared/clock.ts';
import type { ConnectionSlotsFactory } from '../shared/connection-slots.ts';
import type { RateLimiter } from '../shared/rate-limiter.ts';
import type { UsageRecorder } from './plugins/request-context.ts';
import type { EventsStreamDeps } from './push/events/route.ts';
import type { PushTopics } from './push/handshake.ts';
import type { AlertsRouteDeps } from './routes/alerts.ts';
import type { AnalyticsRouteDeps } from './routes/analytics.ts';
import type { LabelsRouteDeps } from './routes/labels.ts';
import type { MarketRouteDeps } from './routes/market.ts';
import type { DerivativesRouteDeps } from './routes/derivatives.ts';
import type { OnchainRouteDeps } from './routes/onchain.ts';
import type { PortfolioRouteDeps } from './routes/portfolio.ts';
import type { PredictionsRouteDeps } from './routes/predictions.ts';
import type { WebhookRouteDeps } from './routes/webhooks.ts';
import type { InvitationMailer } from './routes/organizations.ts';
import type { AlertChannelRouteDeps } from './routes/alert-channels.ts';

/**
 * Everything the HTTP layer (REST and push) needs from the rest of the process — and nothing else: the
 * services it calls, narrowed by each route to the methods it uses. The composition root's container has
 * this shape, so `buildServer(container)` type-checks without the HTTP layer knowing the container.
 */
export interface ServerDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  bus: Bus<PushTopics>;
  limiter: RateLimiter;
  accounts: AccountsService;
  oauth: OAuthService;
  /** The audit log: routes record security-relevant actions; admins read it. */
  audit: Pick<AuditService, 'record' | 'page' | 'all'>;
  /** Single sign-on's provider, when MERIDIAN_OIDC_ISSUER is set. */
  sso?: { provider: SsoProvider };
  /** The supported symbol set: what the REST and push routes normalize symbols to. */
  symbols: SupportedSymbols;
  /** Connection caps of the push routes (memory in one process, Redis across replicas). */
  connectionSlots: ConnectionSlotsFactory;
  /** Checks for /readyz: name → error text, or null when fine. */
  readiness(): Promise<ReadinessReport>;
  market: { service: MarketRouteDeps['market'] & { marketDataBytes(): Buffer } };
  derivatives: { service: DerivativesRouteDeps['derivatives'] };
  onchain: { service: OnchainRouteDeps['onchain']; book: LabelsRouteDeps['book'] };
  /** Private labels: their routes, and the flows view and alert rules that apply them per account. */
  labels: {
    service: LabelsRouteDeps['labels'] &
      NonNullable<OnchainRouteDeps['labels']> &
      NonNullable<AlertsRouteDeps['labels']>;
  };
  predictions: { service: PredictionsRouteDeps['predictions'] };
  portfolio: {
    portfolio: PortfolioRouteDeps['portfolio'];
    analytics: AnalyticsRouteDeps['analytics'];
    usage: UsageRecorder;
  };
  alerts: { service: AlertsRouteDeps['alerts'] };
  webhooks: {
    service: WebhookRouteDeps['webhooks'];
    channels: AlertChannelRouteDeps['channels'];
    events: EventsStreamDeps['events'];
    latestEventSeq(accountId: string): Promise<number>;
    eventsStream?: EventsStreamDeps['hub'];
    mailInvitation?: InvitationMailer;
  };
}
