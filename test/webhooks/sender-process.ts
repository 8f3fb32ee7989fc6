import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitFor } from './harness.ts';

const childScript = join(import.meta.dirname, 'fixtures/sender-child.ts');

/** Sender processes still running (killed by the test's afterAll). */
export const senderProcesses = new Set<ChildProcess>();

/**
 * A webhook sender in its own process (fixtures/sender-child.ts) with `env` as its whole configuration;
 * `line(prefix)` waits for a line it prints, `exited` resolves with its exit signal or code.
 */
export function startSender(mode: 'pause-before-send' | 'run', env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, mode], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  senderProcesses.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((done) =>
    child.once('exit', (code, signal) => {
      senderProcesses.delete(child);
      done(signal ?? code);
    }),
  );
  const line = (prefix: string) =>
    waitFor(
      `"${prefix}" from the sender process (stderr: ${err.slice(-500)})`,
      () => out.includes(prefix),
      60_000,
    ).then(() => out.split('\n').find((l) => l.startsWith(prefix))!);
  return { child, line, exited };
}
