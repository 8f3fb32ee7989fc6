import type { Redis } from 'ioredis';
import { memoryBus } from '../adapters/bus/memory.ts';
import { redisBus } from '../adapters/bus/redis.ts';
import { memoryRateLimiter } from '../adapters/limiter/memory.ts';
import { redisRateLimiter } from '../adapters/limiter/redis.ts';
import { memorySlots } from '../adapters/slots/memory.ts';
import { redisSlots } from '../adapters/slots/redis.ts';
import { replicaHeartbeat } from '../adapters/slots/replica-heartbeat.ts';
import type { Config } from '../config/env.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Clock } from '../shared/clock.ts';
import type { ConnectionSlotsFactory, SlotPool } from '../shared/connection-slots.ts';
import type { RateLimiter } from '../shared/rate-limiter.ts';
import { type AppBus, type Topics, topicDecoders } from './bus-topics.ts';

/**
 * What the processes of a cluster share: the bus, the rate limiter and the push connection slots — on Redis when
 * MERIDIAN_REDIS_URL is set, else in this process's memory.
 */
export interface Coordination {
  redis?: Redis;
  bus: AppBus;
  limiter: RateLimiter;
  /** Push connection caps per account: one process counts in memory, replicas share Redis. */
  connectionSlots: ConnectionSlotsFactory;
  /** Closes the bus, the limiter, the replica heartbeat and the Redis connections, in that order. */
  close(): Promise<void>;
}

export async function buildCoordination(
  config: Config,
  deps: { clock: Clock; metrics: Metrics; logger: Logger; busChannelPrefix?: string },
): Promise<Coordination> {
  const { clock, metrics, logger } = deps;
  const closers: Array<() => Promise<unknown>> = [];
  let redis: Redis | undefined;
  let bus: AppBus;
  let limiter: RateLimiter;
  if (config.redisUrl) {
    // Loaded only when Redis is configured: the embedded layout never needs the client.
    const { connectRedis, waitForRedis } = await import('../adapters/redis.ts');
    redis = connectRedis(config.redisUrl, 'main');
    const subscriber = connectRedis(config.redisUrl, 'subscriber');
    // Start even if Redis is down: the limiter degrades to local mode and /readyz says so.
    await Promise.all([waitForRedis(redis, 3_000), waitForRedis(subscriber, 3_000)]);
    bus = redisBus<Topics>(redis, subscriber, {
      decoders: topicDecoders,
      channelPrefix: deps.busChannelPrefix,
      log: logger.child({ module: 'bus' }),
    });
    limiter = redisRateLimiter(redis, clock, {
      onDegradedChange: (d) => metrics.rateLimitDegraded.set(d ? 1 : 0),
    });
    closers.push(() => subscriber.quit().catch(() => subscriber.disconnect()));
    closers.push(() => redis!.quit().catch(() => redis!.disconnect()));
  } else {
    bus = memoryBus<Topics>({ log: logger.child({ module: 'bus' }) });
    limiter = memoryRateLimiter(clock);
  }

  // One heartbeat per replica for every pool's slots: a crashed replica's slots are released within seconds.
  const replica = redis ? replicaHeartbeat(redis) : undefined;
  const connectionSlots: ConnectionSlotsFactory = (pool, leaseMs) =>
    redis ? redisSlots(redis, leaseMs, slotKeyPrefixes[pool], replica) : memorySlots();

  return {
    redis,
    bus,
    limiter,
    connectionSlots,
    async close() {
      await bus.close();
      await limiter.close();
      replica?.stop();
      for (const close of closers) await close();
    },
  };
}

const slotKeyPrefixes: Record<SlotPool, string> = {
  predictions: 'meridian:ws:slots:',
  events: 'meridian:ws:events-slots:',
  market: 'meridian:ws:market-slots:',
};
