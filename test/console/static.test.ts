import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleCsp, consoleRoutes } from '../../src/http/console.ts';
import { registerErrorHandling } from '../../src/http/plugins/errors.ts';
import type { App } from '../../src/http/types.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function appServing(build: boolean) {
  const dist = `${mkdtempSync(join(tmpdir(), 'meridian-dist-'))}/`;
  dirs.push(dist);
  if (build) {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(dist, 'assets', 'index-abc123.js.br'), 'brotli bytes');
  }
  const app = Fastify() as unknown as App;
  registerErrorHandling(app);
  await app.register(async (scope) => consoleRoutes(dist)(scope as App));
  await app.ready();
  return app;
}

describe('serving the web console', () => {
  it('answers every console page with index.html: never cached, strict CSP', async () => {
    const app = await appServing(true);
    // Every page the console's router declares (console/src/App.tsx), so the two lists cannot drift apart.
    const declared = [...readFileSync('console/src/App.tsx', 'utf8').matchAll(/<Route path="([^"]+)"/g)].map(
      (m) => `/${m[1]!.replace(/^\//, '').replace(':symbol', 'ETHUSDT')}`,
    );
    expect(declared).toContain('/audit-log');
    for (const url of ['/', ...declared]) {
      const page = await app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toBe(consoleCsp);
      expect(page.body).toContain('<div id="root">');
    }
    expect(consoleCsp).toContain("default-src 'none'");
    expect(consoleCsp).not.toMatch(/unsafe-(inline|eval)/);
    await app.close();
  });

  it('serves hashed assets as immutable, pre-compressed when the client accepts it', async () => {
    const app = await appServing(true);
    const plain = await app.inject({ url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body).toBe('console.log(1)');
    const br = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body).toBe('brotli bytes');
    const missing = await app.inject({ url: '/assets/nope.js' });
    expect(missing.statusCode).toBe(404);
    await app.close();
  });

  it('says how to build the console when it is not built, as a problem document', async () => {
    const app = await appServing(false);
    const page = await app.inject({ url: '/' });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toContain('application/problem+json');
    expect(page.json().detail).toContain('npm run console:build');
    await app.close();
  });
});
