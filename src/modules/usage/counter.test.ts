import { describe, expect, it } from 'vitest';
import { manualClock } from '../../shared/clock.ts';
import { USAGE_BUCKET_MS, USAGE_WINDOW_MS, createUsageCounter } from './counter.ts';
import { createMemoryUsageRepository } from './repository.ts';

const START = Date.UTC(2026, 0, 1);

describe('usage counter', () => {
  it('counts in memory, writes on flush, and reads storage plus what is pending', async () => {
    const clock = manualClock(START);
    const repo = createMemoryUsageRepository();
    const counter = createUsageCounter({ repo, clock, flushMs: 1000 });
    for (let i = 0; i < 5; i++) counter.record('acct-a', 'GET', '/api/portfolio', false);
    counter.record('acct-a', 'GET', '/api/portfolio', true);
    counter.record('acct-b', 'POST', '/api/portfolio/import', false);
    expect(repo.cells).toHaveLength(0);
    expect((await counter.totals('acct-a')).byEndpoint).toEqual([
      { endpoint: 'GET /api/portfolio', requests: 6, rateLimited: 1 },
    ]);
    await counter.flush();
    expect(repo.cells).toHaveLength(2);
    counter.record('acct-a', 'GET', '/api/portfolio', false);
    const totals = await counter.totals('acct-a');
    expect(totals).toMatchObject({ requests: 7, rateLimited: 1 });
    expect((await counter.totals('acct-b')).requests).toBe(1);
  });

  it('adds across replicas flushing into the same storage', async () => {
    const clock = manualClock(START);
    const repo = createMemoryUsageRepository();
    const a = createUsageCounter({ repo, clock, flushMs: 1000 });
    const b = createUsageCounter({ repo, clock, flushMs: 1000 });
    for (let i = 0; i < 3; i++) a.record('acct', 'GET', '/x', false);
    for (let i = 0; i < 4; i++) b.record('acct', 'GET', '/x', false);
    expect((await a.totals('acct')).requests).toBe(3);
    await b.flush();
    expect((await a.totals('acct')).requests).toBe(7);
    await a.flush();
    expect((await b.totals('acct')).requests).toBe(7);
  });

  it('drops buckets older than 24 h from the totals and keeps counts when a flush fails', async () => {
    const clock = manualClock(START);
    const repo = createMemoryUsageRepository();
    const logged: string[] = [];
    const counter = createUsageCounter({ repo, clock, flushMs: 1000, log: (m) => logged.push(m) });
    counter.record('acct', 'GET', '/x', false);
    clock.advance(USAGE_BUCKET_MS);
    counter.record('acct', 'GET', '/x', false);
    expect((await counter.totals('acct')).requests).toBe(2);
    clock.advance(USAGE_WINDOW_MS - USAGE_BUCKET_MS);
    expect((await counter.totals('acct')).requests).toBe(1);

    const failing = { ...repo, add: async () => Promise.reject(new Error('storage down')) };
    const broken = createUsageCounter({ repo: failing, clock, flushMs: 1000, log: (m) => logged.push(m) });
    broken.record('acct-2', 'GET', '/y', false);
    await broken.flush();
    expect(logged.some((m) => m.includes('flush failed'))).toBe(true);
    expect((await broken.totals('acct-2')).requests).toBe(1);
  });
});
