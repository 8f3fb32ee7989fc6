import { describe, expect, it } from 'vitest';
import type { ChannelDelivery } from '../api/types.ts';
import { testOutcome, testOutcomeKnown } from './test-delivery.ts';

const queued = { status: 'pending', attempts: 0, lastError: null } as ChannelDelivery;

describe('following a test message', () => {
  it('keeps following while the first attempt is queued or in flight (claimed: counted, no error yet)', () => {
    expect(testOutcomeKnown(undefined)).toBe(false);
    expect(testOutcomeKnown(queued)).toBe(false);
    const inFlight = { ...queued, attempts: 1 };
    expect(testOutcomeKnown(inFlight)).toBe(false);
    expect(testOutcome(inFlight).text).toBe('Sending test message…');
  });

  it('stops once the attempt is settled: a retry with its error, delivered or failed', () => {
    const retrying = { ...queued, attempts: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:9' };
    expect(testOutcomeKnown(retrying)).toBe(true);
    expect(testOutcome(retrying)).toEqual({
      text: 'Retrying: connect ECONNREFUSED 127.0.0.1:9',
      tone: 'warn',
    });
    expect(testOutcomeKnown({ ...queued, status: 'delivered', attempts: 1 })).toBe(true);
    const failed = { ...queued, status: 'failed', attempts: 5, lastError: 'HTTP 500' } as ChannelDelivery;
    expect(testOutcomeKnown(failed)).toBe(true);
    expect(testOutcome(failed).text).toBe('Test message failed: HTTP 500');
  });
});
