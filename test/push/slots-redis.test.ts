import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSlots } from '../../src/adapters/slots/redis.ts';
import { redisUrl } from '../harness/db.ts';

describe.runIf(redisUrl())('push connection slots on real Redis', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl()!);
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('re-creates leases Redis lost on the next renewal, so the cap holds again', async () => {
    const prefix = `test:slots:${randomUUID()}:`;
    const slots = redisSlots(redis, 60_000, prefix);
    const account = 'acct';
    const held = ['c1', 'c2', 'c3'];
    for (const id of held) expect((await slots.acquire(account, id, 3)).ok).toBe(true);
    expect((await slots.acquire(account, 'c4', 3)).ok).toBe(false);
    // Redis loses the data (a restart without persistence, a failover): the key is gone.
    await redis.del(prefix + account);
    await slots.renew(held.map((connectionId) => ({ accountId: account, connectionId })));
    expect(await redis.zcard(prefix + account)).toBe(3);
    expect((await slots.acquire(account, 'c4', 3)).ok).toBe(false);
    await redis.del(prefix + account);
  });
});
