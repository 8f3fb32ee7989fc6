import { type ChildProcess, spawn } from 'node:child_process';

const root = new URL('../..', import.meta.url).pathname;

export interface Launched {
  child: ChildProcess;
  pid: number;
  /** Throws with the process's last output if it has exited. */
  alive(): void;
}

/** `node dist/main/cli.js <args>` (what `npm start` runs once its checks are done), output kept for errors. */
export function launch(args: string[], env: Record<string, string>): Launched {
  const child = spawn(process.execPath, ['dist/main/cli.js', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn', MERIDIAN_RATE_LIMIT_STANDARD: '1000000000', ...env },
  });
  let output = '';
  const keep = (c: Buffer) => {
    output = (output + c.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return {
    child,
    pid: child.pid!,
    alive() {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${output}`);
    },
  };
}

export async function stop(l: Launched): Promise<void> {
  if (l.child.exitCode !== null) return;
  l.child.kill('SIGTERM');
  await new Promise((resolve) => l.child.once('exit', resolve));
}

/** Runs a CLI command to completion; its stdout. */
export async function command(args: string[], env: Record<string, string>): Promise<string> {
  const l = launch(args, env);
  let out = '';
  l.child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => l.child.once('exit', resolve));
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}: ${out}`);
  return out;
}
