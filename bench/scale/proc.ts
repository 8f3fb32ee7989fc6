import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A `/proc/<pid>/status` field in kB (VmRSS:, VmHWM:). */
export const status = (pid: number, field: string) =>
  Number(
    /\d+/.exec(
      readFileSync(`/proc/${pid}/status`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith(field)) ?? '',
    )?.[0] ?? 0,
  );

/** User + system CPU of a process, in clock ticks (1/100 s). */
export const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

export const mb = (kb: number) => Math.round(kb / 1024);

/**
 * RSS by kind from smaps, MB. A WebAssembly memory is the committed mapping just below its multi-GB
 * reservation; the C allocator's arenas are `[heap]` and the 64 MB-aligned heaps of its thread arenas;
 * the rest of the anonymous memory is mostly V8's heaps and generated code.
 */
export function rssByKind(pid: number): { wasm: number; malloc: number; anon: number; files: number } {
  const maps: Array<{ start: bigint; end: bigint; name: string; rss: number }> = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) maps.push({ start: BigInt(`0x${m[1]}`), end: BigInt(`0x${m[2]}`), name: m[3]!, rss: 0 });
    const r = /^Rss:\s+(\d+) kB/.exec(line);
    if (r && maps.length) maps[maps.length - 1]!.rss = Number(r[1]);
  }
  const out = { wasm: 0, malloc: 0, anon: 0, files: 0 };
  const arena = 64n << 20n;
  maps.forEach((x, i) => {
    const next = maps[i + 1];
    const reservedAfter = next && next.start === x.end && !next.name && next.rss === 0;
    if (x.name === '[heap]') out.malloc += x.rss;
    else if (x.name.startsWith('/')) out.files += x.rss;
    else if (reservedAfter && next.end - next.start >= 4n << 30n) out.wasm += x.rss;
    else if (!x.name && x.start % arena === 0n && (x.end - x.start === arena || reservedAfter))
      out.malloc += x.rss;
    else out.anon += x.rss;
  });
  return { wasm: mb(out.wasm), malloc: mb(out.malloc), anon: mb(out.anon), files: mb(out.files) };
}

/** The largest VmRSS among `pid`'s child processes now, MB (0 when it has none). */
export function childrenRssMb(pid: number): number {
  let max = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`))
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean))
        max = Math.max(max, status(Number(child), 'VmRSS:') / 1024);
  } catch {
    // A child (or a thread) that ended between the listing and the read.
  }
  return Math.round(max);
}

export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
