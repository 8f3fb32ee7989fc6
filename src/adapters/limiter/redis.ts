import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../../shared/clock.ts';
import type { LimitDecision, RateLimiter } from '../../shared/rate-limiter.ts';
import { memoryRateLimiter } from './memory.ts';

/**
 * The same sliding log as `memory.ts`, in one atomic Lua script over a sorted set, so the limit holds
 * across every replica. Time comes from the Redis server, so replicas with skewed clocks still agree.
 */
const consumeScript = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, now, member)
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', key, window)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local oldestScore = now
if oldest[2] then oldestScore = tonumber(oldest[2]) end
return {allowed, limit - count, oldestScore + window - now}
`;

const peekScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local used = redis.call('ZCOUNT', KEYS[1], '(' .. (now - window), '+inf')
local oldest = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. (now - window), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
local leaves = 0
if oldest[2] then leaves = tonumber(oldest[2]) + window - now end
return {used, leaves}
`;

export interface RedisLimiterOptions {
  keyPrefix?: string;
  /** Called when the limiter switches between shared and local mode. */
  onDegradedChange?: (degraded: boolean) => void;
}

/**
 * Policy when Redis is unreachable (documented in docs/failures.md, "Redis outage"): each replica keeps answering and
 * enforces the limit on its own local log, so an account gets at most `limit` per replica until Redis
 * returns. Requests never wait on a dead Redis: the client fails fast (no offline queue, short timeout).
 */
export function redisRateLimiter(redis: Redis, clock: Clock, options: RedisLimiterOptions = {}): RateLimiter {
  const prefix = options.keyPrefix ?? 'meridian:rl:';
  const fallback = memoryRateLimiter(clock);
  let degraded = false;
  const setDegraded = (value: boolean) => {
    if (value !== degraded) {
      degraded = value;
      options.onDegradedChange?.(value);
    }
  };
  redis.defineCommand('meridianConsume', { numberOfKeys: 1, lua: consumeScript });
  redis.defineCommand('meridianPeek', { numberOfKeys: 1, lua: peekScript });
  const client = redis as Redis & {
    meridianConsume(
      key: string,
      limit: number,
      window: number,
      member: string,
    ): Promise<[number, number, number]>;
    meridianPeek(key: string, window: number): Promise<[number, number]>;
  };

  return {
    get degraded() {
      return degraded;
    },
    async consume(key, limit, windowMs): Promise<LimitDecision> {
      try {
        const member = `${clock.now()}-${randomBytes(6).toString('base64url')}`;
        const [allowed, remaining, untilOldestLeaves] = await client.meridianConsume(
          prefix + key,
          limit,
          windowMs,
          member,
        );
        setDegraded(false);
        return {
          allowed: allowed === 1,
          limit,
          remaining,
          resetMs: allowed === 1 && remaining > 0 ? 0 : Math.max(1, untilOldestLeaves),
        };
      } catch {
        setDegraded(true);
        return fallback.consume(key, limit, windowMs);
      }
    },
    async peek(key, windowMs) {
      try {
        const [used, oldestLeavesInMs] = await client.meridianPeek(prefix + key, windowMs);
        setDegraded(false);
        return { used, oldestLeavesInMs };
      } catch {
        setDegraded(true);
        return fallback.peek(key, windowMs);
      }
    },
    async refund(key, windowMs) {
      try {
        // The newest member (highest score): atomic, and any one of the key's entries counts the same.
        await redis.zpopmax(prefix + key);
        setDegraded(false);
      } catch {
        setDegraded(true);
        await fallback.refund(key, windowMs);
      }
    },
    async close() {
      await fallback.close();
    },
  };
}
