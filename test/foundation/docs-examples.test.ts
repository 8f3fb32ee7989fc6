import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShellExample, assignedNames, exampleFiles, shellExamples } from '../harness/doc-examples.ts';

/**
 * Every runnable shell example of README.md and docs/*.md, run as written against a server started as
 * `npm start` starts it (the compiled `dist/main/cli.js serve`: embedded storage in a fresh data folder, the
 * simulated market and chain, every default). The conventions are in test/harness/doc-examples.ts: a page's
 * blocks run in order in one shell session (`bash`, `set -euo pipefail`), with `BASE` pointing at this
 * server and `MERIDIAN_DATA_DIR` at its data folder (so `npx meridian tokens create` reaches it); each must
 * exit 0, and each request must answer the status its `# => NNN` line shows, or below 400 without one.
 */

const pages = exampleFiles()
  .map((file) => ({ file, blocks: shellExamples(file).filter((e) => !e.noRun) }))
  .filter((p) => p.blocks.length > 0);

let server: ChildProcess | undefined;
let base = '';
let dir = '';
let output = '';

/** The environment of a server or a reader's shell: none of the test run's own Meridian settings. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(MERIDIAN_|PORT$|HOST$|DATABASE_URL$|REDIS_URL$|TOKEN$|BASE$)/.test(key)) env[key] = value;
  return env;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'meridian-docs-'));
  // PORT=0: a free port, read back from the start-up line. LOG_LEVEL=warn keeps the output to what matters.
  server = spawn(process.execPath, ['dist/main/cli.js', 'serve'], {
    env: { ...cleanEnv(), PORT: '0', MERIDIAN_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' },
  });
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 240_000);
    const read = (d: Buffer) => {
      output += d;
      const address = /running at (http:\/\/\S+)/.exec(output)?.[1];
      if (address) {
        clearTimeout(timer);
        resolve(address);
      }
    };
    server!.stdout!.on('data', read);
    server!.stderr!.on('data', read);
    server!.on('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
  // Ready = start-up work done (the model's warm-up); the examples that read forecasts need it.
  const deadline = Date.now() + 300_000;
  for (;;) {
    const status = await fetch(`${base}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) throw new Error(`/readyz did not turn ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 1_000)); // polling a condition that has no event to wait on
  }
}, 600_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * One block, in the page's session: the variables earlier blocks set are loaded from `state`, the block
 * runs as written, and the variables it sets are saved for the next. `curl` is wrapped to note each
 * request's final status (in order, subshells included) without changing what it does or prints.
 */
function runBlock(example: ShellExample, work: string, n: number) {
  const state = join(work, 'state.sh');
  const calls = join(work, `calls-${n}.txt`);
  if (!existsSync(state)) writeFileSync(state, '');
  writeFileSync(calls, '');
  const names = assignedNames(example.code);
  const script = [
    'set -euo pipefail',
    `source ${JSON.stringify(state)}`,
    'curl() {',
    '  local headers rc=0',
    '  headers=$(mktemp)',
    '  command curl -D "$headers" "$@" || rc=$?',
    `  awk '/^HTTP\\//{s=$2} END{print (s == "" ? "000" : s)}' "$headers" >> ${JSON.stringify(calls)}`,
    '  rm -f "$headers"',
    '  return $rc',
    '}',
    `# ---- ${example.file}:${example.line}`,
    example.code,
    `# ---- end of the example`,
    ...(names.length
      ? [`declare -p ${names.join(' ')} >> ${JSON.stringify(state)} 2>/dev/null || true`]
      : []),
  ].join('\n');
  const file = join(work, `block-${n}.sh`);
  writeFileSync(file, `${script}\n`);
  const result = spawnSync('bash', [file], {
    cwd: process.cwd(),
    env: { ...cleanEnv(), BASE: base, MERIDIAN_DATA_DIR: join(dir, 'data') },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const statuses = readFileSync(calls, 'utf8').split('\n').filter(Boolean).map(Number);
  return { ...result, statuses };
}

describe('shell examples of the documentation, run against a server', () => {
  it('has examples to run', () => {
    expect(pages.length).toBeGreaterThan(0);
  });

  for (const { file, blocks } of pages) {
    it(`${file}: every example runs and answers as shown`, () => {
      const work = mkdtempSync(join(dir, 'page-'));
      blocks.forEach((example, n) => {
        const where = `${example.file}:${example.line}`;
        const run = runBlock(example, work, n);
        const shown = `\n--- ${where}\n${example.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
        expect(run.status, `exit status of the example at ${where}${shown}`).toBe(0);
        const expected = new Map(example.expects.map((e) => [e.curl, e.status]));
        if (expected.size > 0)
          expect(run.statuses.length, `${where}: requests made vs curl commands written${shown}`).toBe(
            example.curls,
          );
        run.statuses.forEach((status, i) => {
          const want = expected.get(i);
          if (want !== undefined)
            expect(status, `${where}: request ${i + 1} answers ${want}${shown}`).toBe(want);
          else expect(status, `${where}: request ${i + 1} answered ${status}${shown}`).toBeLessThan(400);
        });
      });
    }, 300_000);
  }
});
