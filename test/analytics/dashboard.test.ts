import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Container, buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import type { App } from '../../src/http/types.ts';
import { type TestApp, createTestApp, fastHasher } from '../harness/app.ts';
import { waitFor } from '../harness/wait.ts';
import { openTestDatabase, postgresAvailable } from '../harness/db.ts';

type Usage = {
  requests: number;
  rateLimited: number;
  byEndpoint: Array<{ endpoint: string; requests: number; rateLimited: number }>;
};
const endpoint = (usage: Usage, name: string) => usage.byEndpoint.find((e) => e.endpoint === name);

describe('GET /api/dashboard/analytics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { MERIDIAN_ANALYTICS_CACHE_MS: '0', MERIDIAN_RATE_LIMIT_STANDARD: '10' },
    });
  });
  afterAll(async () => t?.close());

  it('answers the account summary with generatedAt, portfolio, alerts, usage and the forecast record', async () => {
    const user = await t.user('viewer');
    const res = await t.app.inject({ method: 'GET', url: '/api/dashboard/analytics', headers: user.auth });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.generatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(body.portfolio).toMatchObject({ valueUsd: '0.00', allocation: [] });
    expect(body.alerts.byState).toEqual({
      active: 0,
      paused: 0,
      triggered: 0,
      expired: 0,
      failing: 0,
      capped: 0,
    });
    expect(body.usage).toMatchObject({ plan: 'standard', limit: { requests: 10, windowSeconds: 60 } });
    expect(body.usage.tokens.active).toBe(1);
    expect(Array.isArray(body.forecasts.horizons)).toBe(true);
  });

  it('counts the requests and 429s the account made, per endpoint', async () => {
    const user = await t.user('member');
    const other = await t.user('member');
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/portfolio', headers: user.auth });
      expect(res.statusCode).toBe(200);
    }
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/portfolio/imports?limit=0',
      headers: user.auth,
    });
    expect(bad.statusCode).toBe(400);
    // Refused before the account is charged: not in its usage.
    await t.app.inject({
      method: 'POST',
      url: '/api/portfolio/import',
      headers: { authorization: 'Bearer nope' },
    });
    const first = await t.app.inject({ method: 'GET', url: '/api/dashboard/analytics', headers: user.auth });
    const usage = first.json().usage as Usage;
    expect(endpoint(usage, 'GET /api/portfolio')).toEqual({
      endpoint: 'GET /api/portfolio',
      requests: 6,
      rateLimited: 0,
    });
    expect(endpoint(usage, 'GET /api/portfolio/imports')?.requests).toBe(1);
    // A request is counted once it has finished: this answer does not include itself yet.
    expect(endpoint(usage, 'GET /api/dashboard/analytics')).toBeUndefined();
    expect(usage.requests).toBe(7);
    expect(first.json().usage.remaining).toBe(2);

    // Two more fill the window of 10; the next ones are 429 and count as such.
    for (let i = 0; i < 4; i++)
      await t.app.inject({ method: 'GET', url: '/api/portfolio', headers: user.auth });
    const dashboard = await t.container.portfolio.analytics.dashboard({
      accountId: user.id,
      plan: 'standard',
      rateLimit: 10,
    });
    const after = JSON.parse(dashboard.toString()).usage as Usage & { remaining: number };
    expect(endpoint(after, 'GET /api/portfolio')).toEqual({
      endpoint: 'GET /api/portfolio',
      requests: 10,
      rateLimited: 2,
    });
    expect(endpoint(after, 'GET /api/dashboard/analytics')?.requests).toBe(1);
    expect(after.rateLimited).toBe(2);
    expect(after.remaining).toBe(0);

    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/dashboard/analytics',
      headers: other.auth,
    });
    expect(theirs.json().usage.requests).toBe(0);
  });

  it('is documented in the OpenAPI document with every portfolio route', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of [
      '/api/dashboard/analytics',
      '/api/portfolio',
      '/api/portfolio/import',
      '/api/portfolio/imports',
      '/api/portfolio/rows',
      '/api/portfolio/rows/{id}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const importOp = doc.paths['/api/portfolio/import'].post;
    expect(Object.keys(importOp.requestBody.content).sort()).toEqual(['application/json', 'text/csv']);
    expect(importOp.parameters.some((p: { name: string }) => p.name === 'idempotency-key')).toBe(true);
  });
});

describe.skipIf(!postgresAvailable())('usage across two API replicas on one PostgreSQL', () => {
  const replicas: Array<{ app: App; container: Container }> = [];
  let close: () => Promise<void>;

  beforeAll(async () => {
    const db = await openTestDatabase('postgres');
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      MERIDIAN_USAGE_FLUSH_MS: '200',
      MERIDIAN_ANALYTICS_CACHE_MS: '0',
      MERIDIAN_RATE_LIMIT_STANDARD: '1000',
    });
    for (let i = 0; i < 2; i++) {
      const container = await buildContainer(config, { hasher: fastHasher, db, skipMigrations: true });
      const app = await buildServer(container, { logLevel: 'silent' });
      await app.ready();
      replicas.push({ app, container });
    }
    close = async () => {
      for (const r of replicas) {
        await r.app.close();
        await r.container.close();
      }
      await db.close();
    };
  });
  afterAll(async () => close?.());

  it('adds up both replicas within one flush interval', async () => {
    const [a, b] = replicas;
    const { user } = await a!.container.accounts.createUser({
      email: 'replicas@example.com',
      role: 'member',
      password: 'correct horse battery',
    });
    const { token } = await a!.container.accounts.createToken(user.id, { name: 'r' });
    const headers = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 7; i++) await a!.app.inject({ method: 'GET', url: '/api/portfolio', headers });
    for (let i = 0; i < 5; i++) await b!.app.inject({ method: 'GET', url: '/api/portfolio', headers });
    const seen = await waitFor(async () => {
      const res = await a!.app.inject({ method: 'GET', url: '/api/dashboard/analytics', headers });
      const count = endpoint(res.json().usage, 'GET /api/portfolio')?.requests;
      return count === 12 ? count : undefined;
    }, "replica B's counts to reach storage");
    expect(seen).toBe(12);
  });
});
