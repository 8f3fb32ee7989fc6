import type { Redis } from 'ioredis';

/**
 * Counts open push connections per account so the plan's cap (5 standard, 50 pro) holds across every
 * API replica. Each connection holds a slot: a lease that its replica renews while the socket lives, so a
 * crashed replica's slots expire on their own instead of locking the account out.
 */
export interface ConnectionSlots {
  /** Takes a slot when fewer than `limit` are held; returns the number held before, or -1 when full. */
  acquire(accountId: string, connectionId: string, limit: number): Promise<{ ok: boolean; held: number }>;
  release(accountId: string, connectionId: string): Promise<void>;
  /** Renews the leases of live connections (called on the ping tick). */
  renew(entries: Iterable<{ accountId: string; connectionId: string }>): Promise<void>;
}

/** Embedded mode: one process, a map. */
export function memorySlots(): ConnectionSlots {
  const held = new Map<string, Set<string>>();
  return {
    async acquire(accountId, connectionId, limit) {
      let set = held.get(accountId);
      const count = set?.size ?? 0;
      if (count >= limit) return { ok: false, held: count };
      if (!set) {
        set = new Set();
        held.set(accountId, set);
      }
      set.add(connectionId);
      return { ok: true, held: count };
    },
    async release(accountId, connectionId) {
      const set = held.get(accountId);
      if (!set) return;
      set.delete(connectionId);
      if (!set.size) held.delete(accountId);
    },
    async renew() {},
  };
}

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
      await redis.zrem(prefix + accountId, connectionId).catch(() => {});
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
      if (n) await pipeline.exec().catch(() => {});
    },
  };
}
