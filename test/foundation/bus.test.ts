import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { memoryBus } from '../../src/adapters/bus/memory.ts';
import { redisBus } from '../../src/adapters/bus/redis.ts';
import { type Topics, topicDecoders } from '../../src/app/bus-topics.ts';
import { topics } from '../../src/shared/bus.ts';
import { redisUrl } from '../harness/db.ts';

describe('bus adapters', () => {
  const closers: Array<() => unknown> = [];
  afterAll(async () => {
    while (closers.length) await closers.pop()!();
  });

  it('memory: a throwing subscriber is logged and the others still run', async () => {
    const warn = vi.fn();
    const bus = memoryBus<Topics>({ log: { warn } });
    const seen: string[] = [];
    await bus.subscribe(topics.alertRuleChanged, () => {
      throw new Error('boom');
    });
    await bus.subscribe(topics.alertRuleChanged, ({ id }) => seen.push(id));
    await bus.publish(topics.alertRuleChanged, { id: 'alr_1' });
    expect(seen).toEqual(['alr_1']);
    expect(warn).toHaveBeenCalledWith(
      { topic: topics.alertRuleChanged, error: 'boom' },
      'bus subscriber failed',
    );
  });

  it.skipIf(!redisUrl())(
    'Redis: a message that is not JSON or not of the topic is dropped and logged',
    async () => {
      const prefix = `meridian:test:${randomBytes(6).toString('hex')}:`;
      const publisher = new Redis(redisUrl()!);
      const subscriber = new Redis(redisUrl()!);
      const raw = new Redis(redisUrl()!);
      closers.push(() => {
        for (const c of [publisher, subscriber, raw]) c.disconnect();
      });
      const warn = vi.fn();
      const bus = redisBus<Topics>(publisher, subscriber, {
        decoders: topicDecoders,
        channelPrefix: prefix,
        log: { info() {}, warn },
      });
      await vi.waitFor(() => expect(subscriber.status).toBe('ready'));
      const seen: string[] = [];
      await bus.subscribe(topics.alertRuleChanged, ({ id }) => seen.push(id));
      const channel = prefix + topics.alertRuleChanged;
      await raw.publish(channel, 'not json');
      await raw.publish(channel, JSON.stringify({ id: 42 }));
      await bus.publish(topics.alertRuleChanged, { id: 'alr_2' });
      await vi.waitFor(() => expect(seen).toEqual(['alr_2']));
      // Logged once (the second refusal falls within the minute and is counted for the next line).
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith(
        { topic: topics.alertRuleChanged, reason: 'not JSON', refused: 1 },
        'bus message dropped: not a valid payload',
      );
      await bus.close();
    },
  );
});
