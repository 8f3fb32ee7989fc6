import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSlots } from '../../src/adapters/slots/redis.ts';
import { replicaHeartbeat } from '../../src/adapters/slots/replica-heartbeat.ts';
import { redisUrl } from '../harness/db.ts';

describe.runIf(redisUrl())('push connection slots on real Redis', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl()!);
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('re-creates leases and the replica key Redis lost on the next renewal, so the cap holds again', async () => {
    const prefix = `test:slots:${randomUUID()}:`;
    const replicaPrefix = `test:replica:${randomUUID()}:`;
    // Beats far apart: only the renewal can bring this replica's key back within the test.
    const beat = { keyPrefix: replicaPrefix, periodMs: 600_000, ttlMs: 60_000 };
    const heartbeatA = replicaHeartbeat(redis, beat);
    const heartbeatB = replicaHeartbeat(redis, beat);
    const a = redisSlots(redis, 60_000, prefix, heartbeatA);
    const b = redisSlots(redis, 60_000, prefix, heartbeatB);
    const account = 'acct';
    const held = ['c1', 'c2', 'c3'];
    try {
      for (const id of held) expect((await a.acquire(account, id, 3)).ok).toBe(true);
      expect((await b.acquire(account, 'c4', 3)).ok).toBe(false);
      // Redis loses the data (a restart without persistence, a failover): the leases and replica keys are gone.
      await redis.del(prefix + account, replicaPrefix + heartbeatA.id, replicaPrefix + heartbeatB.id);
      await a.renew(held.map((connectionId) => ({ accountId: account, connectionId })));
      expect(await redis.zcard(prefix + account)).toBe(3);
      expect(await redis.exists(replicaPrefix + heartbeatA.id)).toBe(1);
      // Another replica at the cap sees A's re-created slots as live, not as a crashed replica's.
      expect((await b.acquire(account, 'c4', 3)).ok).toBe(false);
    } finally {
      heartbeatA.stop();
      heartbeatB.stop();
      await redis.del(prefix + account);
    }
  });

  it("releases a crashed replica's slots within seconds, and never a live replica's", async () => {
    const prefix = `test:slots:${randomUUID()}:`;
    const replicaPrefix = `test:replica:${randomUUID()}:`;
    // Leases of 90 s (three ping periods at the defaults): without the heartbeat, a crash held them that long.
    const leaseMs = 90_000;
    const beat = { keyPrefix: replicaPrefix, periodMs: 200, ttlMs: 1_000 };
    const heartbeatA = replicaHeartbeat(redis, beat);
    const heartbeatB = replicaHeartbeat(redis, beat);
    const a = redisSlots(redis, leaseMs, prefix, heartbeatA);
    const b = redisSlots(redis, leaseMs, prefix, heartbeatB);
    const account = 'acct';
    try {
      for (const id of ['a1', 'a2', 'a3']) expect((await a.acquire(account, id, 3)).ok).toBe(true);
      // A is alive (heartbeating) past its heartbeat's lifetime: its slots hold.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await b.acquire(account, 'b1', 3)).ok).toBe(false);

      // A crashes: no release, no more heartbeats. Its slots are free within seconds.
      heartbeatA.stop();
      const crashedAt = Date.now();
      let freedAfter: number | undefined;
      while (freedAfter === undefined && Date.now() - crashedAt < 10_000) {
        if ((await b.acquire(account, 'b1', 3)).ok) freedAfter = Date.now() - crashedAt;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(freedAfter).toBeDefined();
      expect(freedAfter!).toBeLessThan(5_000);
      // The cap still holds across what is left: B takes two more and no fourth.
      expect((await b.acquire(account, 'b2', 3)).ok).toBe(true);
      expect((await b.acquire(account, 'b3', 3)).ok).toBe(true);
      expect((await b.acquire(account, 'b4', 3)).ok).toBe(false);
      expect(await redis.zcard(prefix + account)).toBe(3);
    } finally {
      heartbeatA.stop();
      heartbeatB.stop();
      await redis.del(prefix + account);
    }
  });
});
