import { sql } from 'kysely';
import { writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tablesOf } from '../src/adapters/db/connect.ts';
import { openDatabase } from '../src/adapters/db/connect.ts';
import { migrateToLatest } from '../src/adapters/db/migrate.ts';
import { simulatedDerivativesSource } from '../src/adapters/derivatives/simulated.ts';
import { PriceModel } from '../src/adapters/market/simulated/model.ts';
import { profileOf, simulatedUniverse } from '../src/adapters/market/simulated/universe.ts';
import {
  type DerivativesRepository,
  type DerivativesTables,
  createDerivativesService,
  createKyselyDerivativesRepository,
  createMemoryDerivativesRepository,
} from '../src/modules/derivatives/index.ts';
import { manualClock } from '../src/shared/clock.ts';

/**
 * What derivatives ingest adds per symbol, simulated, against the scale budget per symbol (≤ 1.5 MB RSS and
 * ≤ 0.5 % of a core at steady state; the target allows derivatives 20 % of it: 0.3 MB and 0.1 % of a core).
 * - CPU: `refresh()` for `BENCH_DERIVATIVES_SYMBOLS` (default 200) symbols — poll the simulated venues, merge,
 *   keep the 24 h windows, store in embedded PGlite, build the views — once a simulated minute, as the job
 *   runs it at the default MERIDIAN_DERIVATIVES_REFRESH_MS of 60 s; process CPU per refresh ÷ 60 s ÷ symbols.
 * - Memory: the service's own state (windows, readings, views, the simulated source's price model) after 26
 *   simulated hours of refreshes (the windows hold 25 h), heap after a full GC minus before, per symbol.
 * Results go to bench/results/derivatives-ingest.json.
 */
const SYMBOLS = Number(process.env.BENCH_DERIVATIVES_SYMBOLS ?? 200);
const MEMORY_SYMBOLS = Math.min(SYMBOLS, 50);
const CPU_REFRESHES = 30;
const MEMORY_HOURS = 26;
const REFRESH_MS = 60_000;
const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const silent = { warn() {}, info() {} };

// A benchmark may set node flags for itself: a full GC before each heap reading.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function serviceOf(symbols: readonly string[], repository: DerivativesRepository, clock = manualClock(NOW)) {
  const source = simulatedDerivativesSource({
    model: new PriceModel(42, symbols, profileOf),
    symbols,
    clock,
  });
  const service = createDerivativesService({
    source,
    repository,
    clock,
    symbols,
    sourceLabel: 'simulated',
    staleMs: 300_000,
    outlierBps: 200,
    refreshMs: REFRESH_MS,
    historyDays: 1,
    log: silent,
  });
  return { service, clock };
}

async function cpuPerRefresh(): Promise<{ cpuMs: number; wallMs: number; rowsStored: number }> {
  const db = await openDatabase({});
  await migrateToLatest(db.db);
  try {
    const symbols = simulatedUniverse(SYMBOLS).map((m) => m.symbol);
    const { service, clock } = serviceOf(
      symbols,
      createKyselyDerivativesRepository(tablesOf<DerivativesTables>(db.db)),
    );
    for (let i = 0; i < 5; i++) {
      clock.advance(REFRESH_MS);
      await service.refresh();
    }
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < CPU_REFRESHES; i++) {
      clock.advance(REFRESH_MS);
      await service.refresh();
    }
    const cpu = process.cpuUsage(cpu0);
    const counted = await sql<{ n: string }>`select count(*) as n from derivatives_points`.execute(db.db);
    return {
      cpuMs: (cpu.user + cpu.system) / 1000 / CPU_REFRESHES,
      wallMs: (performance.now() - t0) / CPU_REFRESHES,
      rowsStored: Number(counted.rows[0]?.n ?? 0),
    };
  } finally {
    await db.close();
  }
}

async function heapPerSymbol(): Promise<number> {
  const symbols = simulatedUniverse(MEMORY_SYMBOLS).map((m) => m.symbol);
  // Storage is not what is measured here: a repository that keeps nothing.
  const keepsNothing: DerivativesRepository = {
    ...createMemoryDerivativesRepository(),
    upsert: async () => {},
  };
  gc();
  const before = process.memoryUsage().heapUsed;
  const { service, clock } = serviceOf(symbols, keepsNothing, manualClock(NOW - MEMORY_HOURS * 3_600_000));
  for (let minute = 0; minute < MEMORY_HOURS * 60; minute++) {
    clock.advance(REFRESH_MS);
    await service.refresh();
  }
  gc();
  const after = process.memoryUsage().heapUsed;
  if (service.views([symbols[0]!]).length !== 1) throw new Error('no view after the refreshes');
  return (after - before) / MEMORY_SYMBOLS;
}

export async function run() {
  const cpu = await cpuPerRefresh();
  const heap = await heapPerSymbol();
  const corePctPerSymbol = (cpu.cpuMs / REFRESH_MS / SYMBOLS) * 100;
  const mbPerSymbol = heap / 2 ** 20;
  console.log(
    `refresh of ${SYMBOLS} symbols: CPU ${cpu.cpuMs.toFixed(1)} ms, wall ${cpu.wallMs.toFixed(1)} ms (mean of ${CPU_REFRESHES}; ${cpu.rowsStored} points stored)`,
  );
  console.log(
    `per symbol: ${corePctPerSymbol.toFixed(4)} % of a core at one refresh a minute (allowance 0.1 %: ${(corePctPerSymbol / 0.1).toFixed(2)} of it)`,
  );
  console.log(
    `per symbol: ${(mbPerSymbol * 1024).toFixed(0)} KiB of heap after ${MEMORY_HOURS} h (${MEMORY_SYMBOLS} symbols; allowance 0.3 MB: ${(mbPerSymbol / 0.3).toFixed(2)} of it)`,
  );
  const result = { symbols: SYMBOLS, ...cpu, corePctPerSymbol, heapKibPerSymbol: heap / 1024 };
  writeFileSync('bench/results/derivatives-ingest.json', `${JSON.stringify(result, null, 2)}\n`);
  console.log('written to bench/results/derivatives-ingest.json');
  return result;
}
