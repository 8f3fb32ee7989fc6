import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The newcomer's check: clone the committed repository into an empty folder and run the README's two
 * commands there with nothing done first. `npm test` in the clone runs the whole pipeline (install, lint,
 * type-check, vitest) on one small suite, so the nested run does not repeat everything (or itself).
 */
const nested = process.env.MERIDIAN_FRESH_CLONE_NESTED === '1';

describe.skipIf(nested)('fresh clone', () => {
  it('npm start and npm test work with nothing else done first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meridian-clone-'));
    try {
      const clone = spawnSync('git', ['clone', '-q', process.cwd(), dir], { encoding: 'utf8' });
      expect(clone.status, clone.stderr).toBe(0);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        MERIDIAN_FRESH_CLONE_NESTED: '1',
        PORT: '0',
        LOG_LEVEL: 'warn',
      };
      delete env.npm_config_prefix;

      const server = spawn('npm', ['start'], { cwd: dir, env, detached: true });
      let out = '';
      server.stdout.on('data', (d) => {
        out += d;
      });
      server.stderr.on('data', (d) => {
        out += d;
      });
      try {
        const started = await new Promise<{ address: string; token: string }>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${out}`)), 240_000);
          const check = () => {
            const address = /running at (http:\/\/\S+)/.exec(out)?.[1];
            const token = /API token: (mrd_\S+)/.exec(out)?.[1];
            if (address && token) {
              clearTimeout(timer);
              resolve({ address, token });
            }
          };
          server.stdout.on('data', check);
          server.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
        });
        const me = await fetch(`${started.address}/api/account`, {
          headers: { authorization: `Bearer ${started.token}` },
        });
        expect(me.status).toBe(200);
        expect((await fetch(`${started.address}/readyz`)).status).toBe(200);
        // npm start built the web console, served at /.
        const consolePage = await fetch(`${started.address}/`);
        expect(consolePage.status).toBe(200);
        expect(await consolePage.text()).toContain('<div id="root">');
      } finally {
        if (server.exitCode === null && server.pid) {
          const exited = new Promise((r) => server.once('exit', r));
          process.kill(-server.pid, 'SIGTERM');
          await exited;
        }
      }

      const test = spawnSync('npm', ['test', '--', 'test/foundation/config.test.ts'], {
        cwd: dir,
        env,
        encoding: 'utf8',
        timeout: 300_000,
      });
      expect(test.status, `${test.stdout}\n${test.stderr}`).toBe(0);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips terminal colour codes
      expect(test.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+\d+ passed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
