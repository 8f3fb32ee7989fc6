import type { ChannelKind, Delivery, WebhookEndpoint } from './types.ts';

/**
 * The webhooks module's ports, filled by the adapters of `src/adapters/webhooks/`: the delivery transports
 * (HTTP behind the address policy, SMTP), the secret box, and the channel formats that turn a delivery into
 * what its channel's transport sends.
 */

/** One POST to a receiver (a signed webhook, or a chat API call). */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What came back: a status (any, redirects included: they are never followed) or why nothing did. */
export type WebhookResponse =
  | {
      kind: 'response';
      statusCode: number;
      location?: string;
      latencyMs: number;
      /** A 429's wait (Retry-After header, or the JSON body's `retry_after` / `parameters.retry_after`). */
      retryAfterMs?: number;
    }
  | { kind: 'timeout' | 'refused' | 'network_error'; error: string; latencyMs: number };

/** The delivery transport port; the adapter (adapters/webhooks) enforces the address policy at connect time. */
export interface WebhookTransport {
  send(request: WebhookRequest): Promise<WebhookResponse>;
  close(): Promise<void>;
}

/**
 * Seals webhook signing secrets for storage. They must stay usable to sign (HMAC needs the secret itself), so
 * they are encrypted rather than hashed; `context` (the endpoint id) is bound to the ciphertext so a sealed
 * value copied onto another row does not open. The adapter (adapters/webhooks/secret-box.ts) owns the key.
 */
export interface SecretBox {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** One email message (the SMTP server is the operator's: MERIDIAN_SMTP_URL). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** `Message-ID` (with its angle brackets): the same on every attempt, so a resent copy is the same message. */
  messageId?: string;
}

/**
 * The SMTP transport port. Accepted: `{ kind: 'response', statusCode: 250 }`; a refusal: the server's reply
 * code as `statusCode`; nothing heard: `timeout` / `network_error`.
 */
export interface MailTransport {
  send(message: MailMessage): Promise<WebhookResponse>;
  close(): Promise<void>;
}

/** What a delivery becomes for its channel: an HTTP request, or an email. */
export type OutboundMessage =
  | { via: 'http'; request: WebhookRequest }
  | { via: 'mail'; message: MailMessage };

/**
 * Turns a due delivery into its channel's message: the webhook format signs the stored event, an alert channel
 * renders the rule's template for its medium.
 */
export interface ChannelFormat {
  compose(input: {
    endpoint: WebhookEndpoint;
    delivery: Delivery;
    box: SecretBox;
    sentAt: number;
  }): OutboundMessage;
}

export type ChannelFormats = Partial<Record<ChannelKind, ChannelFormat>>;
