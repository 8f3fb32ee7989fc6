/**
 * The predictions push channel's wire contract in one place: limits, close codes, the control messages a
 * client may send and the replies it gets. `docs/push-channel.md` documents the same values.
 */

/** The subprotocol a client may offer next to its token; answered when offered. */
export const PROTOCOL = 'meridian.v1';

export const limits = {
  /** Largest inbound message; larger ones close the socket with 1009 (enforced by `ws`). */
  maxInboundBytes: 4096,
  /** Control messages a client may send per window; beyond, messages are answered with an error and ignored. */
  controlMessagesPerWindow: 20,
  controlWindowMs: 10_000,
  /** Ignored messages allowed per window before the socket is closed with 4429. */
  ignoredMessagesPerWindow: 20,
} as const;

/** Close codes the server uses. 1xxx are RFC 6455; 4xxx are Meridian's own. */
export const closeCodes = {
  /** The server is shutting down (or restarting): reconnect, ideally to another replica. */
  goingAway: 1001,
  /** An inbound message was larger than 4 KB (sent by `ws` itself). */
  messageTooBig: 1009,
  /** Unexpected server failure. */
  internalError: 1011,
  /** The token (or console session) was revoked, expired, or lost the `predictions:read` permission. */
  credentialsEnded: 4401,
  /** The client did not read fast enough: its send buffer overflowed. Reconnect and read faster. */
  slowConsumer: 4408,
  /** The client kept sending messages over the control-message limit. */
  tooManyMessages: 4429,
} as const;

export type ControlType = 'subscribe' | 'unsubscribe' | 'ping';

/** Error codes sent in `{ "type": "error" }` messages. */
export type PushErrorCode =
  | 'malformed_message'
  | 'unknown_message_type'
  | 'binary_not_supported'
  | 'unsupported_symbol'
  | 'invalid_horizon'
  | 'rate_limited';

export interface PushError {
  type: 'error';
  code: PushErrorCode;
  message: string;
  id?: string | number;
}
