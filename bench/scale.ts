import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedRow, measureEmbedded } from './scale/embedded.ts';
import { type ScaledRow, measureScaled } from './scale/scaled.ts';

/**
 * Cost per symbol, the way users start the server: `node dist/main/cli.js serve` (what `npm start` runs once
 * its checks are done), simulated market, defaults otherwise, background jobs on, no CPU pinning.
 * - embedded, for each size in `BENCH_SCALE_SYMBOLS` (default 7,50,200,500; 7 is the default universe, the
 *   others `MERIDIAN_SYMBOLS=top:N`): one process on a fresh PGlite data folder;
 * - scaled, for each size in `BENCH_SCALE_SCALED_SYMBOLS` (default 500; empty: none): PostgreSQL and Redis,
 *   two workers sharing `BENCH_SCALE_PARTITIONS` (8) partitions and one API replica, figures per process.
 * Each measures: ready (launch to `/readyz` 200); settled (history ok and every symbol forecast, waited for at
 * most `BENCH_SCALE_SETTLE_MAX_SECONDS`, default 1800: past it the row says how many were forecast); peak RSS
 * (VmHWM) and steady RSS and CPU (share of one core) over `BENCH_SCALE_IDLE_SECONDS` (60) of idling once
 * settled; ingest lag (now minus `Meridian-As-Of`, median of 50); `market-data` and `market-history` (1m,
 * 500 bars, random symbols and times) p50/p99 over 300 GETs; a model refresh begun after start-up work; the
 * data folder's (embedded) or database's (scaled) size `BENCH_SCALE_RUN_SECONDS` (600) after launch; for
 * embedded, where the steady RSS is (`/proc/<pid>/smaps`: PGlite's WebAssembly memory, the C allocator's
 * arenas, V8's heaps and other anonymous memory, mapped files) and the peak of the short-lived process that
 * creates the embedded database. Results: bench/results/scale.json; the marginal cost per symbol is the slope
 * from the smallest to the largest embedded universe.
 */
const list = (text: string) => text.split(',').filter(Boolean).map(Number);
const sizes = list(process.env.BENCH_SCALE_SYMBOLS ?? '7,50,200,500');
const scaledSizes = list(process.env.BENCH_SCALE_SCALED_SYMBOLS ?? '500');
const durations = {
  idleSeconds: Number(process.env.BENCH_SCALE_IDLE_SECONDS ?? 60),
  runSeconds: Number(process.env.BENCH_SCALE_RUN_SECONDS ?? 600),
  settleMaxSeconds: Number(process.env.BENCH_SCALE_SETTLE_MAX_SECONDS ?? 1800),
};
const root = new URL('..', import.meta.url).pathname;

export async function run(): Promise<{ rows: EmbeddedRow[]; scaled: ScaledRow[] }> {
  const rows: EmbeddedRow[] = [];
  for (const n of sizes) {
    const row = await measureEmbedded(n, durations);
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  const scaled: ScaledRow[] = [];
  for (const n of scaledSizes) {
    const row = await measureScaled(n, durations);
    scaled.push(row);
    console.log(JSON.stringify(row));
  }
  const a = rows[0];
  const b = rows.at(-1);
  const perSymbol =
    a && b && b.symbols > a.symbols
      ? {
          steadyRssMb: (b.steadyRssMb - a.steadyRssMb) / (b.symbols - a.symbols),
          idleCpuPercent: (b.idleCpuPercent - a.idleCpuPercent) / (b.symbols - a.symbols),
        }
      : undefined;
  if (rows.length) console.table(rows);
  for (const row of scaled) console.table(row.processes);
  if (perSymbol) console.log('marginal cost per symbol', perSymbol);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    join(root, 'bench/results/scale.json'),
    `${JSON.stringify({ measuredAt: new Date().toISOString(), load: loadAverage(), ...durations, rows, scaled, perSymbol }, null, 2)}\n`,
  );
  return { rows, scaled };
}

const loadAverage = () => loadavg().map((x) => Math.round(x * 10) / 10);
