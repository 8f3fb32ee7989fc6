import type { Redis } from 'ioredis';
import type { ConnectionSlots } from '../../shared/connection-slots.ts';
import { memorySlots } from './memory.ts';

// KEYS[1] account set; ARGV: now, lease ms, limit, connection id. Expired leases are dropped first.
const acquireScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[3]) then return {0, n} end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, n}
`;

/**
 * Scaled mode: one sorted set per account (member = connection id, score = lease end). When Redis is
 * unreachable the check falls back to this replica's own count (the cap then holds per replica, the same
 * degradation the rate limiter has) rather than refusing every connection.
 */
export function redisSlots(redis: Redis, leaseMs: number, prefix = 'meridian:ws:slots:'): ConnectionSlots {
  const local = memorySlots();
  redis.defineCommand('meridianWsAcquire', { numberOfKeys: 1, lua: acquireScript });
  const client = redis as Redis & {
    meridianWsAcquire(
      key: string,
      now: number,
      lease: number,
      limit: number,
      id: string,
    ): Promise<[number, number]>;
  };
  return {
    async acquire(accountId, connectionId, limit) {
      try {
        const [ok, n] = await client.meridianWsAcquire(
          prefix + accountId,
          Date.now(),
          leaseMs,
          limit,
          connectionId,
        );
        if (ok === 1) await local.acquire(accountId, connectionId, Number.MAX_SAFE_INTEGER);
        return { ok: ok === 1, held: n };
      } catch {
        return local.acquire(accountId, connectionId, limit);
      }
    },
    async release(accountId, connectionId) {
      await local.release(accountId, connectionId);
      await redis.zrem(prefix + accountId, connectionId).catch(() => {
        // Redis unreachable: the lease lapses on its own (≤ leaseMs); meanwhile acquire counts locally.
      });
    },
    async renew(entries) {
      const pipeline = redis.pipeline();
      const until = Date.now() + leaseMs;
      let n = 0;
      for (const { accountId, connectionId } of entries) {
        // Without XX: a lease Redis lost (restart, failover, eviction) is created again, so the cap holds.
        pipeline.zadd(prefix + accountId, until, connectionId);
        pipeline.pexpire(prefix + accountId, leaseMs);
        n++;
      }
      if (n)
        await pipeline.exec().catch(() => {
          // Redis unreachable: acquire counts locally meanwhile; the next renewal creates the leases again.
        });
    },
  };
}
