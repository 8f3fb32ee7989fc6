import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../harness/app.ts';

// Debian's python3 (the SDK promises the standard library only; the push client uses python3-websockets).
const python = process.env.MERIDIAN_PYTHON ?? '/usr/bin/python3';
const required = process.env.MERIDIAN_REQUIRE_SERVICES === '1';
const clientDir = fileURLToPath(new URL('../../clients/python', import.meta.url));
const env = { MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT', MERIDIAN_MARKET_HISTORY_DAYS: '2' };

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}

function unittest(vars: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-m', 'unittest', '-v', 'tests.test_client'], {
      cwd: clientDir,
      env: { ...process.env, ...vars, PYTHONDONTWRITEBYTECODE: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.runIf(required || existsSync(python))('meridian-client (Python) against a real server', () => {
  let t: TestApp;
  let limited: TestApp;
  const vars: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ env });
    const user = await t.user('member');
    await t.container.market.job.start();
    await t.container.market.service.windowsLoaded();
    // The models' first fit over the working window (as a worker's start does): no forecasts before it.
    t.container.predictions.service.warmUp();
    await t.container.predictions.service.refresh();
    vars.MERIDIAN_TEST_URL = await listen(t);
    vars.MERIDIAN_TEST_TOKEN = user.token;
    limited = await createTestApp({ env: { ...env, MERIDIAN_RATE_LIMIT_STANDARD: '3' } });
    vars.MERIDIAN_TEST_LIMITED_URL = await listen(limited);
    vars.MERIDIAN_TEST_LIMITED_TOKEN = (await limited.user('viewer')).token;
  }, 120_000);
  afterAll(async () => {
    await t?.container.market.job.stop();
    await t?.close();
    await limited?.close();
  });

  it('passes its unittest suite: every read endpoint, problems, 429 and retry, to_records, push', async () => {
    const { code, output } = await unittest(vars);
    expect(output, output).toMatch(/^OK/m);
    expect(code, output).toBe(0);
    // Every case ran: a skipped push case (no websockets package) is a failure where services are required.
    const skipped = output.match(/skipped=(\d+)/)?.[1];
    if (required) expect(skipped, output).toBeUndefined();
    expect(output).toMatch(/Ran 8 tests/);
  }, 180_000);
});
