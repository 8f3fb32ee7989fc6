import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PasswordHasher } from '../../src/modules/accounts/index.ts';
import { type TestApp, type TestUser, createTestApp, fastHasher } from '../harness/app.ts';

/**
 * A stand-in for argon2id with its real constraint: each check holds one of `width` worker threads (libuv's
 * pool is 4) for `ms`. What matters here is queueing, not the hash, so timings are the same on any machine.
 */
function pooledHasher(width: number, ms: number): PasswordHasher & { started: string[] } {
  const pool = pLimit(width);
  /** The passwords whose check got a thread, in that order. */
  const started: string[] = [];
  const busy = (password: string) =>
    pool(() => {
      started.push(password);
      return new Promise<void>((resolve) => setTimeout(resolve, ms));
    });
  return {
    started,
    hash: async (password) => {
      await busy(password);
      return fastHasher.hash(password);
    },
    verify: async (hash, password) => {
      await busy(password);
      return fastHasher.verify(hash, password);
    },
  };
}

type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;
const statuses = (replies: Reply[]) => {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
};

/** The sign-in failure limiter under concurrency (issue 34, item 1). */
describe('sign-in failures are limited under concurrency', () => {
  let t: TestApp;
  let member: TestUser;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp({
      container: { hasher: pooledHasher(4, 25) },
      env: { MERIDIAN_AUTH_FAILURE_LIMIT: '10' },
    });
    member = await t.user('member');
  }, 120_000);
  afterAll(() => t.close());

  const signIn = (remoteAddress: string, email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/auth/login', remoteAddress, payload: { email, password } });
  const wrong = (remoteAddress: string, email = `nobody${++n}@example.com`) =>
    signIn(remoteAddress, email, 'wrong password!');

  it('N parallel wrong passwords from one address: at most the limit get 401, the rest 429 with Retry-After', async () => {
    const replies = await Promise.all(Array.from({ length: 60 }, () => wrong('10.9.0.1')));
    const counts = statuses(replies);
    expect(counts[401] ?? 0).toBeGreaterThan(0);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(10);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(60);
    for (const r of replies.filter((x) => x.statusCode === 429)) {
      expect(r.json().code).toBe('auth_rate_limited');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // However they arrive, no more than the limit are ever checked in the window.
    let checked = counts[401] ?? 0;
    for (let i = 0; i < 15; i++) if ((await wrong('10.9.0.1')).statusCode === 401) checked++;
    expect(checked).toBe(10);
    // The right password from that address waits for the window too (no oracle while blocked).
    expect((await signIn('10.9.0.1', member.email, member.password)).statusCode).toBe(429);
  });

  it('a successful sign-in gives its place back', async () => {
    for (let i = 0; i < 15; i++)
      expect((await signIn('10.9.1.1', member.email, member.password)).statusCode).toBe(200);
  });

  it('counts failures per account across addresses', async () => {
    const target = await t.user('viewer');
    const replies: Reply[] = [];
    for (let i = 0; i < 12; i++) replies.push(await wrong(`10.9.2.${i + 1}`, target.email));
    expect(replies.slice(0, 10).map((r) => r.statusCode)).toEqual(Array(10).fill(401));
    expect(replies[10]!.statusCode).toBe(429);
    expect(replies[10]!.json().detail).toContain('account');
    expect(Number(replies[10]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('a sign-in under a flood from other addresses', () => {
  let t: TestApp;
  let member: TestUser;
  const hasher = pooledHasher(4, 25);
  beforeAll(async () => {
    t = await createTestApp({ container: { hasher } });
    member = await t.user('member');
  }, 120_000);
  afterAll(() => t.close());

  const timed = async (remoteAddress: string) => {
    const started = performance.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      remoteAddress,
      payload: { email: member.email, password: member.password },
    });
    expect(res.statusCode).toBe(200);
    return performance.now() - started;
  };

  it('is not queued behind the flood', async () => {
    await timed('10.8.0.1'); // warm-up
    const baseline = Math.min(await timed('10.8.0.1'), await timed('10.8.0.1'));
    const before = hasher.started.length;
    // 4 addresses × 60 parallel wrong passwords (the probe was 4 × 100), sent ahead of the sign-in.
    const flood = Promise.all(
      Array.from({ length: 240 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/auth/login',
          remoteAddress: `10.7.0.${(i % 4) + 1}`,
          payload: { email: `flood${i}@example.com`, password: 'wrong password!' },
        }),
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    const underFlood = await timed('10.8.0.2');
    const floodStatuses = statuses(await flood);
    // How many of the flood's password checks got a thread before this sign-in's own check.
    const ahead = hasher.started.slice(before).indexOf(member.password);
    console.info(
      `sign-in: ${baseline.toFixed(0)} ms alone, ${underFlood.toFixed(0)} ms under a flood of 240 ` +
        `(${JSON.stringify(floodStatuses)}), ${ahead} flood checks ahead of it`,
    );
    // Unbounded, all 240 checks queue ahead of it (about 1.5 s of hashing on 4 threads of 25 ms).
    expect(ahead).toBeGreaterThanOrEqual(0);
    // 4 addresses with at most 2 sign-ins each at once; a check that ends lets that address's next one in.
    expect(ahead).toBeLessThanOrEqual(2 * 4 * 2);
    expect(floodStatuses[401]).toBeLessThanOrEqual(4 * 30);
  });
});
