// `npx tsx bench/compare-checkouts.ts DIR [DIR…]`: server CPU per request of GET /api/account (or BENCH_PATH)
// for several checkouts of Meridian — e.g. `git worktree add /tmp/before <rev>` beside this one — to tell
// whether a change to the request pipeline helped. One server instance's cost varies ±10 % on a shared VM,
// so each checkout runs in INSTANCES fresh processes (default 3), in alternation, each measured over
// BENCH_ROUNDS rounds; each server's event loop and the load generator get cores of their own
// (`placement.ts`).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { compare, startTarget, stopTarget } from './lib.ts';
import { placementLabel } from './placement.ts';

const dirs = process.argv.slice(2).map((d) => resolve(d));
if (dirs.length === 0 || dirs.some((d) => !existsSync(`${d}/bench/targets/api-server.ts`))) {
  console.error('usage: bench/compare-checkouts.ts DIR [DIR…] (each a Meridian checkout with node_modules)');
  process.exit(2);
}
const instances = Number(process.env.INSTANCES ?? 3);
const path = process.env.BENCH_PATH ?? '/api/account';
const perDir = new Map<string, number[]>(dirs.map((d) => [d, []]));

for (let set = 0; set < instances; set++) {
  const order = set % 2 ? [...dirs].reverse() : dirs;
  const started = [];
  for (const dir of order) {
    const target = await startTarget(`${dir}/bench/targets/api-server.ts`, []);
    started.push({ dir, ...target });
  }
  const results = await compare(
    started.map((t) => ({
      name: t.dir,
      url: `${t.info.url}${path}`,
      headers: { authorization: `Bearer ${t.info.token}` },
      child: t.child,
    })),
  );
  for (const r of results) perDir.get(r.name)!.push(r.cpuUsPerRequest ?? Number.NaN);
  await Promise.all(started.map((t) => stopTarget(t.child)));
}

console.log(`\nserver CPU µs per request, ${path}, ${instances} instance(s) each, ${placementLabel()}`);
for (const [dir, values] of perDir) {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`${mean.toFixed(2).padStart(7)}  (${values.map((v) => v.toFixed(1)).join(', ')})  ${dir}`);
}
process.exit(0);
