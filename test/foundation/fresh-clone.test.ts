import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../harness/wait.ts';

/** PIDs of the processes in a process group (Linux /proc), to check by PID that none outlives a stop. */
function groupMembers(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

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
          const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${out}`)), 540_000);
          const check = () => {
            const address = /running at (http:\/\/\S+)/.exec(out)?.[1];
            const file = join(dir, 'data', 'first-start-credentials.txt');
            const token = existsSync(file)
              ? /API token: (mrd_\S+)/.exec(readFileSync(file, 'utf8'))?.[1]
              : undefined;
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
        // npm start compiled the server and runs it from dist/ with plain node (no tsx, no child process).
        expect(existsSync(join(dir, 'dist', 'main', 'cli.js'))).toBe(true);
        // The install built the SDK workspace (its `prepare`), so `npx tsx examples/…` works as their headers say.
        expect(existsSync(join(dir, 'packages', 'client', 'dist', 'index.js'))).toBe(true);
        const members = groupMembers(server.pid!);
        const cmdlines = members.map((pid) =>
          readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '),
        );
        expect(cmdlines.some((c) => c.includes('dist/main/cli.js serve'))).toBe(true);
        expect(cmdlines.join('\n')).not.toMatch(/tsx/);
        // SIGTERM to the `npm start` process alone (as a supervisor sends it): nothing of it is left after 10 s.
        const stopped = Date.now();
        process.kill(server.pid!, 'SIGTERM');
        await waitFor(
          async () => (members.every((pid) => !alive(pid)) ? true : undefined),
          'npm start and its server to exit after SIGTERM',
          30_000,
        );
        expect(Date.now() - stopped).toBeLessThan(10_000 + 2_000); // 10 s plus this check's own polling
      } finally {
        if (server.exitCode === null && server.pid) {
          const exited = new Promise((r) => server.once('exit', r));
          try {
            process.kill(-server.pid, 'SIGTERM');
          } catch {}
          await exited;
        }
      }

      const test = spawnSync('npm', ['test', '--', 'src/config/env.test.ts'], {
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
  }, 1_000_000);
});
