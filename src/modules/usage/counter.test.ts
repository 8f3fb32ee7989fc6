import { describe, expect, it } from 'vitest';
import { manualClock } from '../../shared/clock.ts';
import { USAGE_BUCKET_MS, USAGE_WINDOW_MS, createUsageCounter } from './counter.ts';
import type { UsageTotals } from './counter.ts';
import { createMemoryUsageRepository } from './repository.ts';

const START = Date.UTC(2026, 0, 1);

describe('usage counter', () => {
  it('counts in memory, writes on flush, and reads storage plus what is pending', async () => {
    const clock = manualClock(START);
    const repo = createMemoryUsageRepository();
    const counter = createUsageCounter({ repo, clock, flushMs: 1000 });
    for (let i = 0; i < 5; i++) counter.record('acct-a', 'tok_1', 'GET', '/api/portfolio', false);
    counter.record('acct-a', 'tok_1', 'GET', '/api/portfolio', true);
    counter.record('acct-b', 'tok_1', 'POST', '/api/portfolio/import', false);
    expect(repo.cells).toHaveLength(0);
    expect((await counter.totals('acct-a')).byEndpoint).toEqual([
      { endpoint: 'GET /api/portfolio', requests: 6, rateLimited: 1 },
    ]);
    await counter.flush();
    expect(repo.cells).toHaveLength(2);
    counter.record('acct-a', 'tok_1', 'GET', '/api/portfolio', false);
    const totals = await counter.totals('acct-a');
    expect(totals).toMatchObject({ requests: 7, rateLimited: 1 });
    expect((await counter.totals('acct-b')).requests).toBe(1);
  });

  it('adds across replicas flushing into the same storage', async () => {
    const clock = manualClock(START);
    const repo = createMemoryUsageRepository();
    const a = createUsageCounter({ repo, clock, flushMs: 1000 });
    const b = createUsageCounter({ repo, clock, flushMs: 1000 });
    for (let i = 0; i < 3; i++) a.record('acct', 'tok_1', 'GET', '/x', false);
    for (let i = 0; i < 4; i++) b.record('acct', 'tok_1', 'GET', '/x', false);
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
    counter.record('acct', 'tok_1', 'GET', '/x', false);
    clock.advance(USAGE_BUCKET_MS);
    counter.record('acct', 'tok_1', 'GET', '/x', false);
    expect((await counter.totals('acct')).requests).toBe(2);
    clock.advance(USAGE_WINDOW_MS - USAGE_BUCKET_MS);
    expect((await counter.totals('acct')).requests).toBe(1);

    const failing = { ...repo, add: async () => Promise.reject(new Error('storage down')) };
    const broken = createUsageCounter({ repo: failing, clock, flushMs: 1000, log: (m) => logged.push(m) });
    broken.record('acct-2', 'tok_1', 'GET', '/y', false);
    await broken.flush();
    expect(logged.some((m) => m.includes('flush failed'))).toBe(true);
    expect((await broken.totals('acct-2')).requests).toBe(1);
  });

  it('keeps clients apart and sums 30 UTC days from the daily rows plus what is pending', async () => {
    const clock = manualClock(START + 12 * 3_600_000);
    const repo = createMemoryUsageRepository();
    const counter = createUsageCounter({ repo, clock, flushMs: 1000 });
    counter.record('acct', 'console', 'GET', '/api/account', false);
    counter.record('acct', 'tok_1', 'GET', '/api/account', false);
    counter.record('acct', 'tok_1', 'GET', '/api/market-data', true);
    await counter.flush();
    expect(repo.days).toHaveLength(3);
    clock.advance(3 * 86_400_000); // the 10-minute buckets of that day are past the 24 h view
    counter.record('acct', 'tok_1', 'GET', '/api/account', false);
    const day = await counter.totals('acct');
    expect(day.requests).toBe(1);
    const month = await counter.days('acct');
    expect(month).toMatchObject({ requests: 4, rateLimited: 1 });
    expect(month.byClient).toEqual([
      { client: 'tok_1', requests: 3, rateLimited: 1 },
      { client: 'console', requests: 1, rateLimited: 0 },
    ]);
    expect(month.byEndpoint[0]).toEqual({ endpoint: 'GET /api/account', requests: 3, rateLimited: 0 });
    clock.advance(30 * 86_400_000);
    expect((await counter.days('acct')).requests).toBe(0); // every count is older than 30 days
  });

  it('counts the current 60-second window per endpoint to the second, pending and stored, across replicas', async () => {
    const clock = manualClock(START + 500);
    const repo = createMemoryUsageRepository();
    const a = createUsageCounter({ repo, clock, flushMs: 1000 });
    const b = createUsageCounter({ repo, clock, flushMs: 1000 });
    a.record('acct', 'tok_1', 'GET', '/x', false); // at 0.5 s: leaves the window at 60.5 s
    clock.advance(30_000);
    a.record('acct', 'tok_1', 'GET', '/x', false);
    a.record('acct', 'tok_1', 'GET', '/x', true);
    b.record('acct', 'console', 'GET', '/y', false);
    const endpoints = (t: UsageTotals) => t.byEndpoint.map((e) => [e.endpoint, e.requests, e.rateLimited]);
    expect(endpoints(await a.currentWindow('acct'))).toEqual([['GET /x', 3, 1]]); // b's is not flushed yet
    await a.flush();
    await b.flush();
    expect(repo.seconds.map((c) => [c.bucket - START, c.requests])).toEqual([
      [0, 1],
      [30_000, 2],
      [30_000, 1],
    ]);
    a.record('acct', 'tok_1', 'GET', '/x', false); // pending, in the same second as a stored row
    const now = await b.currentWindow('acct');
    expect(now.since).toBe(START - 30_000); // the seconds overlapping (now - 60 s, now], now = 30.5 s
    expect(endpoints(now)).toEqual([
      ['GET /x', 3, 1],
      ['GET /y', 1, 0],
    ]);
    expect(endpoints(await a.currentWindow('acct'))).toEqual([
      ['GET /x', 4, 1],
      ['GET /y', 1, 0],
    ]);
    clock.advance(30_000); // 60.5 s: its second still overlaps the window (counted to the second)
    expect((await b.currentWindow('acct')).requests).toBe(4);
    clock.advance(500); // 61 s: the first request's second has left it
    expect((await b.currentWindow('acct')).requests).toBe(3);
    expect((await a.currentWindow('acct')).byClient).toEqual([
      { client: 'tok_1', requests: 3, rateLimited: 1 },
      { client: 'console', requests: 1, rateLimited: 0 },
    ]);
    clock.advance(60_000);
    await a.flush(); // and prunes seconds older than two minutes
    expect((await a.currentWindow('acct')).requests).toBe(0);
    expect(repo.seconds.every((c) => c.bucket >= clock.now() - 120_000)).toBe(true);
  });
});
