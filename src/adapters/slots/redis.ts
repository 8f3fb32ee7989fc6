import type { Redis } from 'ioredis';
import type { ConnectionSlots } from '../../shared/connection-slots.ts';
import { memorySlots } from './memory.ts';
import { type ReplicaHeartbeat, replicaHeartbeat } from './replica-heartbeat.ts';

// KEYS[1] account set; ARGV: now, lease ms, limit, member (replica id/connection id), replica key prefix,
// this replica's id, replica key ttl. Expired leases are dropped first; when the account is full, so are the
// slots of replicas whose heartbeat key has expired (members are `<replica id>/<connection id>`).
const acquireScript = `
redis.call('SET', ARGV[5] .. ARGV[6], '1', 'PX', ARGV[7])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[3]) then
  local alive = {}
  for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    local replica = string.match(member, '^([^/]+)/')
    if replica then
      if alive[replica] == nil then alive[replica] = redis.call('EXISTS', ARGV[5] .. replica) == 1 end
      if not alive[replica] then
        redis.call('ZREM', KEYS[1], member)
        n = n - 1
      end
    end
  end
end
if n >= tonumber(ARGV[3]) then return {0, n} end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, n}
`;

/**
 * Scaled mode: one sorted set per account (member = replica id/connection id, score = lease end); a slot
 * lives while its lease is renewed (the ping tick) and its replica's heartbeat key (replica-heartbeat.ts)
 * has not expired. When Redis is unreachable the check falls back to this replica's own count (the cap then
 * holds per replica, the same degradation the rate limiter has) rather than refusing every connection.
 */
export function redisSlots(
  redis: Redis,
  leaseMs: number,
  prefix = 'meridian:ws:slots:',
  replica: ReplicaHeartbeat = replicaHeartbeat(redis),
): ConnectionSlots {
  const local = memorySlots();
  const memberOf = (connectionId: string) => `${replica.id}/${connectionId}`;
  redis.defineCommand('meridianWsAcquire', { numberOfKeys: 1, lua: acquireScript });
  const client = redis as Redis & {
    meridianWsAcquire(
      key: string,
      now: number,
      lease: number,
      limit: number,
      member: string,
      replicaPrefix: string,
      replicaId: string,
      replicaTtlMs: number,
    ): Promise<[number, number]>;
  };
  return {
    async acquire(accountId, connectionId, limit) {
      replica.start();
      try {
        const [ok, n] = await client.meridianWsAcquire(
          prefix + accountId,
          Date.now(),
          leaseMs,
          limit,
          memberOf(connectionId),
          replica.keyPrefix,
          replica.id,
          replica.ttlMs,
        );
        if (ok === 1) await local.acquire(accountId, connectionId, Number.MAX_SAFE_INTEGER);
        return { ok: ok === 1, held: n };
      } catch {
        return local.acquire(accountId, connectionId, limit);
      }
    },
    async release(accountId, connectionId) {
      await local.release(accountId, connectionId);
      await redis.zrem(prefix + accountId, memberOf(connectionId)).catch(() => {
        // Redis unreachable: the lease lapses on its own (≤ leaseMs); meanwhile acquire counts locally.
      });
    },
    async renew(entries) {
      const pipeline = redis.pipeline();
      // The replica's key goes with its leases: after a Redis restart, re-created leases must not look orphaned.
      pipeline.set(replica.keyPrefix + replica.id, '1', 'PX', replica.ttlMs);
      const until = Date.now() + leaseMs;
      let n = 0;
      for (const { accountId, connectionId } of entries) {
        // Without XX: a lease Redis lost (restart, failover, eviction) is created again, so the cap holds.
        pipeline.zadd(prefix + accountId, until, memberOf(connectionId));
        pipeline.pexpire(prefix + accountId, leaseMs);
        n++;
      }
      if (n > 0)
        await pipeline.exec().catch(() => {
          // Redis unreachable: acquire counts locally meanwhile; the next renewal creates the leases again.
        });
    },
  };
}
