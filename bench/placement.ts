import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Which cores the load generator and the servers under test run on. On a small machine the kernel at times
 * keeps the generator and a server's event-loop thread on the same core for seconds; a round that lands
 * there runs at about half speed. On this 2-core VM, six 4 s rounds of one `npm start` under wrk spread
 * 27,000–44,000 req/s unpinned and 47,000–55,000 pinned (docs/adr/0009-benchmark-method.md).
 *
 * So, where `taskset` works and there are at least two CPUs, every server's main thread (its event loop) is
 * pinned to CPU 0 and the generator runs on the last CPU. Only the main thread: a server's other threads
 * (embedded storage, the garbage collector's helpers, libuv's pool) stay free to run on either core, as they
 * would in use. Every server of a comparison gets the same placement. `BENCH_PIN=0` measures unpinned.
 */
const cpus = availableParallelism();

function tasksetWorks(): boolean {
  return process.platform === 'linux' && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
}

let pinnedChoice: boolean | undefined;
/** Whether to pin, decided at the first use (a bench may set `BENCH_PIN` in its `run`). */
export function pinned(): boolean {
  pinnedChoice ??= cpus >= 2 && process.env.BENCH_PIN !== '0' && tasksetWorks();
  return pinnedChoice;
}

const generatorCpu = String(cpus - 1);

/** The generator's command line, run on its own core when pinned. */
export function onGeneratorCore(argv: string[]): string[] {
  return pinned() ? ['taskset', '-c', generatorCpu, ...argv] : argv;
}

/** Pins a server's main thread (its thread id is its process id) to CPU 0; no-op when unpinned. */
export function pinEventLoop(pid: number | undefined): void {
  if (!pinned() || pid === undefined) return;
  const result = spawnSync('taskset', ['-p', '-c', '0', String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`taskset could not pin process ${pid}: ${result.stderr}`);
}

/** For table titles: where the measured code ran. */
export function placementLabel(): string {
  return pinned()
    ? `servers' event loops on CPU 0, generator on CPU ${generatorCpu}`
    : 'unpinned (BENCH_PIN=0 or no taskset)';
}
