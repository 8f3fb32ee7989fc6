import { limits } from './predictions/protocol.ts';

/** A socket's count of inbound messages in the current window (every push channel keeps one per socket). */
export interface InboundWindow {
  start: number;
  messages: number;
  ignored: number;
}

export const inboundWindow = (now: number): InboundWindow => ({ start: now, messages: 0, ignored: 0 });

/**
 * The one inbound rate limit of every push channel: `limits.controlMessagesPerWindow` messages per
 * `limits.controlWindowMs` are taken, the next `limits.ignoredMessagesPerWindow` are ignored (`'ignore'`:
 * `/predictions` answers each with a `rate_limited` error), and one more closes the socket (`'close'`: 4429).
 */
export function countInbound(window: InboundWindow, now: number): 'take' | 'ignore' | 'close' {
  if (now - window.start >= limits.controlWindowMs) {
    window.start = now;
    window.messages = 0;
    window.ignored = 0;
  }
  if (++window.messages <= limits.controlMessagesPerWindow) return 'take';
  return ++window.ignored > limits.ignoredMessagesPerWindow ? 'close' : 'ignore';
}
