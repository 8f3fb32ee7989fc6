// Names for the response shapes the console uses, taken from the generated OpenAPI types.
import type { paths } from '@meridian/client';

export type { Outlook, OutlookEntry, OutlookEntryError } from '@meridian/client';

type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type Account = Ok<'/api/account', 'get'>;
export type Permission = Account['permissions'][number];
export type Token = Ok<'/api/account/tokens', 'get'>['data'][number];
export type MarketItem = Ok<'/api/market-data', 'get'>['data'][number];
export type Candle = Ok<'/api/market-history', 'get'>['data'][number];
export type Flow = Ok<'/api/onchain/flows', 'get'>['data'][number];
export type FlowsPage = Ok<'/api/onchain/flows', 'get'>;
export type NetflowPage = Ok<'/api/onchain/netflow', 'get'>;
export type NetflowPoint = NetflowPage['data'][number];
export type Datapoint = Ok<'/api/predictions', 'get'>['data'][number];
export type Performance = Ok<'/api/predictions/performance', 'get'>['data'][number];
export type Horizon = Datapoint['horizon'];

type Created<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 201: { content: { 'application/json': infer T } } };
}
  ? T
  : never;
type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody: { content: { 'application/json': infer T } };
}
  ? T
  : never;

export type AlertsPage = Ok<'/api/alerts', 'get'>;
export type AlertRule = AlertsPage['data'][number];
export type AlertState = AlertRule['state'];
export type AlertType = AlertRule['type'];
export type NewAlert = Body<'/api/alerts', 'post'>;
export type AlertBacktest = Ok<'/api/alerts/backtest', 'post'>;
export type Delivery = Ok<'/api/alerts/{id}/deliveries', 'get'>['data'][number];
export type Webhook = Ok<'/api/webhooks', 'get'>['data'][number];
export type NewWebhook = Body<'/api/webhooks', 'post'>;
export type WebhookEvent = Webhook['events'][number];
export type CreatedWebhook = Created<'/api/webhooks', 'post'>;
export type AlertChannel = Ok<'/api/alert-channels', 'get'>['data'][number];
export type NewAlertChannel = Body<'/api/alert-channels', 'post'>;
export type ChannelDelivery = Ok<'/api/alert-channels/{id}/deliveries', 'get'>['data'][number];
export type TemplatePreview = Ok<'/api/alert-channels/preview', 'post'>;
export type TemplatePreviewRequest = Body<'/api/alert-channels/preview', 'post'>;
export type Portfolio = Ok<'/api/portfolio', 'get'>;
export type Holding = Portfolio['holdings'][number];
export type PortfolioRow = Ok<'/api/portfolio/rows', 'get'>['data'][number];
export type PortfolioImport = Ok<'/api/portfolio/imports', 'get'>['data'][number];
export type ImportResult = Ok<'/api/portfolio/import', 'post'>;
export type Analytics = Ok<'/api/dashboard/analytics', 'get'>;
export type AuditPage = Ok<'/api/audit-log', 'get'>;
export type AuditEntry = AuditPage['data'][number];
export type AuditAction = AuditEntry['action'];
export type TwoFactorStatus = Ok<'/api/account/two-factor', 'get'>;
export type Organization = Ok<'/api/organizations/{id}', 'get'>;
export type OrganizationMember = Ok<'/api/organizations/{id}/members', 'get'>['data'][number];
export type Invitation = Ok<'/api/organizations/{id}/invitations', 'get'>['data'][number];
