/**
 * The webhooks module's ports, filled by the adapters of `src/adapters/webhooks/`: the delivery transport and
 * the secret box.
 */

/** One signed POST to a receiver. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What came back: a status (any, redirects included: they are never followed) or why nothing did. */
export type WebhookResponse =
  | { kind: 'response'; statusCode: number; location?: string; latencyMs: number }
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
