/**
 * Webhook endpoints and the delivery of account events to them: registration (URL checked against the
 * address policy, signing secret sealed at rest), the outbox sender (Standard Webhooks signatures, retries,
 * per-rule order), and the deliveries lists.
 */
export { type AddressPolicy, createAddressPolicy, isIpLiteral } from './address-policy.ts';
export type { DeliveryExhausted } from './attempt.ts';
export type {
  ChannelFormat,
  ChannelFormats,
  MailMessage,
  MailTransport,
  OutboundMessage,
  SecretBox,
  WebhookRequest,
  WebhookResponse,
  WebhookTransport,
} from './ports.ts';
export { presentDelivery, presentEndpoint } from './present.ts';
export {
  createMemoryWebhooksRepositories,
  decodeDeliveryCursor,
  type DeliveriesRepository,
  type DeliveryFilter,
  type EndpointsRepository,
} from './repository.ts';
export { createKyselyEndpointsRepository } from './endpoints.kysely.ts';
export { createKyselyDeliveriesRepository } from './repository.kysely.ts';
export { maxAttempts, type RetryPolicy, retryDelay } from './retry.ts';
export { deliveryId, matchEndpoints, ruleOf } from './routing.ts';
export {
  createWebhookSender,
  defaultSenderOptions,
  type MessageCaps,
  type SenderOptions,
  type WebhookSender,
} from './sender.ts';
export {
  type AlertRules,
  type CreateWebhook,
  createWebhooksService,
  signingSecretsOf,
  type WebhooksService,
} from './service.ts';
export { generateSigningSecret, signatureHeaders, signMessage } from './signature.ts';
export type { WebhooksTables } from './tables.ts';
export {
  ATTEMPT_OUTCOMES,
  type Attempt,
  type AttemptOutcome,
  CHANNEL_KINDS,
  type ChannelKind,
  type Delivery,
  type DeliveryStatus,
  type EndpointStatus,
  type NewDelivery,
  type Verification,
  type WebhookEndpoint,
} from './types.ts';
export { checkWebhookUrl, type ResolveHost, type UrlRules } from './url-check.ts';
