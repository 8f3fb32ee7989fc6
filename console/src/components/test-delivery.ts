import type { ChannelDelivery } from '../api/types.ts';

/** What a test delivery came to, in words: delivered, still trying (and why), or failed. */
export function testOutcome(d: ChannelDelivery): { text: string; tone: 'ok' | 'warn' | 'out' } {
  if (d.status === 'delivered') return { text: 'Test message delivered', tone: 'ok' };
  if (d.status === 'pending')
    return d.lastError
      ? { text: `Retrying: ${d.lastError}`, tone: 'warn' }
      : { text: 'Sending test message…', tone: 'warn' };
  return { text: `Test message failed: ${d.lastError ?? d.status}`, tone: 'out' };
}

/**
 * Whether the first attempt has an outcome to show, so following the delivery can stop. An attempt in flight
 * is already counted in `attempts` (the sender claims it first) but has no error yet: keep following it.
 */
export const testOutcomeKnown = (d: ChannelDelivery | undefined): boolean =>
  d !== undefined && (d.status !== 'pending' || d.lastError !== null);
