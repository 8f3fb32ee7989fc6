import { describe, expect, it } from 'vitest';
import type { AccountEvent } from '../../../modules/events/index.ts';
import { streamed } from './hub.ts';

const event = (data: unknown): AccountEvent => ({
  seq: 1,
  id: 'evt_1',
  accountId: 'usr_a',
  type: 'alert.triggered',
  body: JSON.stringify({ id: 'evt_1', data }),
  test: false,
  createdAt: 0,
});

describe('which events go on /events', () => {
  it('every event unless its rule opted out of the stream', () => {
    expect(streamed(event({ rule: { id: 'a' } }))).toBe(true);
    expect(streamed(event({ rule: { id: 'a', channels: { events: true } } }))).toBe(true);
    expect(streamed(event({ rule: { id: 'a', channels: { events: false } } }))).toBe(false);
  });
});
