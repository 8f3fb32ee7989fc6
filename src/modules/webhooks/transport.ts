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
