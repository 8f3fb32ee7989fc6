import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

const tsc = join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');

/** What a user of the published package writes: REST, a problem as an exception, one push snapshot. */
const program = `import { MeridianProblemError, createMeridianClient } from '@meridian/client';
const client = createMeridianClient({ baseUrl: process.env.MERIDIAN_URL, token: process.env.MERIDIAN_TOKEN });
const { data, rateLimit } = await client.GET('/api/market-data', { params: { query: { symbols: 'BTCUSDT' } } });
console.log(JSON.stringify({ symbol: data.data[0].symbol, price: data.data[0].price, limit: rateLimit.limit }));
try {
  await client.GET('/api/market-history', { params: { query: { symbol: 'NOPEUSDT', strict: true } } });
} catch (error) {
  console.log(JSON.stringify({ problem: error instanceof MeridianProblemError, status: error.status, code: error.code }));
}
const snapshots = client.market.subscribe({ symbols: ['BTCUSDT'] });
const first = (await snapshots.next()).value;
console.log(JSON.stringify({ push: first.type, symbols: first.data.map((item) => item.symbol) }));
await snapshots.return();
`;

/** Its types, compiled against the package's own declarations: a misspelled query key must not compile. */
const typed = `import { createMeridianClient } from '@meridian/client';
const client = createMeridianClient({ baseUrl: 'http://localhost:8080' });
const { data } = await client.GET('/api/predictions', { params: { query: { symbol: 'BTCUSDT', horizon: '1h' } } });
const price: number | undefined = data.data[0]?.prediction;
void price;
await client.GET('/api/predictions', { params: { query: { symbol: 'BTCUSDT', horizn: '1h' } } });
`;

describe('@meridian/client as a published package (npm pack → install in an empty folder)', () => {
  let t: TestApp;
  let user: TestUser;
  let baseUrl: string;
  const dir = mkdtempSync(join(tmpdir(), 'meridian-sdk-pack-'));

  beforeAll(async () => {
    t = await createTestApp({
      env: { MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT', MERIDIAN_MARKET_HISTORY_DAYS: '2' },
    });
    user = await t.user('member');
    await t.container.market.job.start();
    await t.container.market.service.windowsLoaded();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;

    // `npm pack` runs the package's prepare (its build), so the tarball carries a fresh dist/.
    execFileSync('npm', ['pack', '-w', '@meridian/client', '--pack-destination', dir], { stdio: 'ignore' });
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack produced no tarball');
    const app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }),
    );
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], {
      cwd: app,
      stdio: 'ignore',
    });
  }, 240_000);
  afterAll(async () => {
    await t.container.market.job.stop();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ships only its build, its README and its manifest', () => {
    const installed = join(dir, 'app', 'node_modules', '@meridian', 'client');
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json']);
    expect(readdirSync(join(installed, 'dist'))).toContain('index.d.ts');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      'openapi-fetch',
      'openapi-typescript-helpers',
      'ws',
    ]);
  });

  it('works from plain JavaScript outside the repository', async () => {
    writeFileSync(join(dir, 'app', 'use.mjs'), program);
    // Asynchronously: the server answering it lives in this process.
    const run = await promisify(execFile)(process.execPath, ['use.mjs'], {
      cwd: join(dir, 'app'),
      env: { ...process.env, MERIDIAN_URL: baseUrl, MERIDIAN_TOKEN: user.token },
      timeout: 60_000,
    });
    const [rest, problem, push] = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rest).toMatchObject({ symbol: 'BTCUSDT', limit: 120 });
    expect(rest.price).toBeGreaterThan(0);
    expect(problem).toEqual({ problem: true, status: 400, code: 'unsupported_symbol' });
    expect(push).toEqual({ push: 'snapshot', symbols: ['BTCUSDT'] });
  }, 60_000);

  it("its declarations type the answers and reject a misspelled query key ('horizn')", () => {
    const app = join(dir, 'app');
    writeFileSync(join(app, 'typed.ts'), typed);
    const options = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
    const check = spawnSync(process.execPath, [tsc, ...options, 'typed.ts'], { cwd: app, encoding: 'utf8' });
    const errors = check.stdout.split('\n').filter((line) => line.includes('error TS'));
    expect(errors).toHaveLength(1);
    const column = typed.split('\n')[5]!.indexOf('horizn') + 1;
    expect(errors[0]).toContain(`typed.ts(6,${column})`);
    expect(errors[0]).toContain('unknownQueryParameter: "horizn"');
  }, 60_000);
});
