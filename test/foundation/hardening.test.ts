import { mkdtempSync, mkdirSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDataDir } from '../../src/adapters/db/data-dir.ts';
import { openDatabase } from '../../src/adapters/db/connect.ts';
import { type TestApp, createTestApp } from '../harness/app.ts';
import { pgliteSnapshot } from '../harness/db.ts';

describe('security headers on every answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const expectBaseline = (headers: Record<string, unknown>) => {
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
  };

  it('API answers, problems and unmatched routes carry them; the API policy forbids everything', async () => {
    const user = await t.user('viewer');
    for (const request of [
      { url: '/api/market-data?symbols=BTCUSDT', headers: user.auth },
      { url: '/api/market-data?symbols=BTCUSDT' }, // 401 problem
      { url: '/no/such/route' }, // 404 from the not-found handler
      { url: '/healthz' },
      { url: '/openapi.json' },
    ]) {
      const res = await t.app.inject(request);
      expectBaseline(res.headers);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['cache-control']).toBeUndefined();
    }
  });

  it('account, token and sign-in answers are no-store, successes and failures alike', async () => {
    const user = await t.user('member');
    for (const request of [
      { url: '/api/account', headers: user.auth },
      { url: '/api/account' },
      { url: '/api/account/tokens', headers: user.auth }, // 403: tokens need a console session
      {
        method: 'POST' as const,
        url: '/auth/login',
        payload: { email: user.email, password: user.password },
      },
      { method: 'POST' as const, url: '/auth/login', payload: { email: user.email, password: 'wrong' } },
    ]) {
      const res = await t.app.inject(request);
      expectBaseline(res.headers);
      expect(res.headers['cache-control'], `${request.url} ${res.statusCode}`).toBe('no-store');
    }
  });

  it('/docs gets its own policy that lets Swagger UI run, and cannot be framed', async () => {
    const res = await t.app.inject({ url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expectBaseline(res.headers);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe('the embedded data folder is private', () => {
  it('is created 0700 with files 0600, and an older readable folder is tightened', async () => {
    const root = mkdtempSync(join(tmpdir(), 'meridian-perm-'));
    const previousUmask = process.umask();
    try {
      const old = join(root, 'old');
      mkdirSync(join(old, 'sub'), { recursive: true, mode: 0o755 });
      writeFileSync(join(old, 'sub', 'file'), 'x', { mode: 0o644 });
      prepareDataDir(old);
      expect(statSync(old).mode & 0o777).toBe(0o700);
      expect(statSync(join(old, 'sub')).mode & 0o777).toBe(0o700);
      expect(statSync(join(old, 'sub', 'file')).mode & 0o777).toBe(0o600);

      const fresh = join(root, 'fresh');
      const db = await openDatabase({ dataDir: fresh, loadDataDir: pgliteSnapshot() });
      await db.close();
      expect(statSync(fresh).mode & 0o777).toBe(0o700);
      const files = readdirSync(fresh, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) expect(statSync(join(f.parentPath, f.name)).mode & 0o077).toBe(0);
    } finally {
      process.umask(previousUmask);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
