import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/env.ts';
import { serve } from '../../src/main/serve.ts';

/**
 * The first admin's secrets on a first start (issue 34, item 7): in a 0600 file of the data folder; on stdout
 * only when it is a terminal, since otherwise stdout is a log stream that containers and journald keep. Two real
 * first starts (initdb, migrations, the whole server) take many seconds of CPU: slow tier (`*.slow.test.ts`).
 */
describe('first-start credentials', () => {
  const root = mkdtempSync(join(tmpdir(), 'meridian-first-start-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  async function firstStart(name: string, tty: boolean) {
    const dataDir = join(root, name);
    const config = loadConfig({
      MERIDIAN_DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT',
      MERIDIAN_MARKET_HISTORY_DAYS: '1',
    });
    const written: string[] = [];
    const wasTTY = process.stdout.isTTY;
    process.stdout.isTTY = tty;
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const running = await serve(config, 'all');
      await running.stop('SIGTERM');
    } finally {
      spy.mockRestore();
      process.stdout.isTTY = wasTTY;
    }
    const file = join(dataDir, 'first-start-credentials.txt');
    const text = readFileSync(file, 'utf8');
    return {
      stdout: written.join(''),
      mode: statSync(file).mode & 0o777,
      password: /password:\s+(\S+)/.exec(text)?.[1],
      token: /API token:\s+(mrd_\S+)/.exec(text)?.[1],
    };
  }

  it('writes them to a 0600 file and keeps them off a stdout that is not a terminal', async () => {
    const started = await firstStart('piped', false);
    expect(started.mode).toBe(0o600);
    expect(started.token).toMatch(/^mrd_/);
    expect(started.password?.length).toBeGreaterThanOrEqual(10);
    expect(started.stdout).not.toContain(started.token);
    expect(started.stdout).not.toContain(started.password);
  }, 240_000);

  it('also shows them on a terminal', async () => {
    const started = await firstStart('terminal', true);
    expect(started.mode).toBe(0o600);
    expect(started.stdout).toContain(started.token);
    expect(started.stdout).toContain(started.password);
  }, 240_000);
});
