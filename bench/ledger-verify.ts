import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Config } from '../src/config/env.ts';
import { runPredictionsCommand } from '../src/main/predictions-command.ts';
import { EMPTY_HEAD, type LedgerHead, chainEntries } from '../src/modules/predictions/ledger/chain.ts';
import { presentLedgerEntry } from '../src/modules/predictions/present.ts';
import type { PredictionRow } from '../src/modules/predictions/repository.ts';
import { PUBLIC_QUANTILES, quantileKey } from '../src/modules/predictions/types.ts';

/**
 * `meridian predictions verify --file` over an export of 1 M ledger entries (JSON lines, as the ledger endpoint
 * answers them, with outcomes so every entry is also re-scored). Target: ≤ 10 s for 1 M entries. Baseline in
 * the same run: reading the same file line by line and parsing each line as JSON, without checking anything —
 * the ratio is what verifying adds to reading the export at all. Wall and CPU time are both reported; the
 * target is judged on the CPU time of this process (single-threaded, the file in the page cache: on a quiet
 * machine the two agree, on a shared one the wall time adds the wait for a core). A run of 1 M entries is
 * written to bench/results/ledger-verify.json.
 */
const ENTRIES = Number(process.env.BENCH_LEDGER_ENTRIES ?? 1_000_000);
const BATCH = 10_000;
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT'];
const HORIZONS = ['15m', '1h', '6h'] as const;
const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;

/** Writes the export, building the chain batch by batch as refreshes append it (one batch in memory at a time). */
async function writeExport(path: string): Promise<void> {
  const out = createWriteStream(path);
  let head: LedgerHead = EMPTY_HEAD;
  for (let written = 0, refresh = 0; written < ENTRIES; refresh++) {
    const now = T0 + refresh * MIN;
    const rows: PredictionRow[] = [];
    for (let k = 0; k < BATCH && written + k < ENTRIES; k++) rows.push(rowOf(written + k, now));
    const entries = chainEntries(head, rows, now);
    head = { sequence: entries.at(-1)!.sequence, hash: entries.at(-1)!.hash };
    const text = entries.map((e, k) => JSON.stringify(presentLedgerEntry(e, rows[k]))).join('\n');
    written += rows.length;
    if (!out.write(`${text}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/** A scored datapoint with all 19 quantiles, as a real one is stored. */
function rowOf(i: number, now: number): PredictionRow {
  const baseline = 100 + (i % 997) / 7;
  const quantiles: Record<string, number> = {};
  for (const level of PUBLIC_QUANTILES)
    quantiles[quantileKey(level)] = Number((baseline * (1 + (level - 0.5) * 0.02)).toPrecision(10));
  return {
    symbol: SYMBOLS[i % SYMBOLS.length]!,
    horizon: HORIZONS[Math.floor(i / SYMBOLS.length) % 3]!,
    generated_at: now,
    baseline,
    prediction: Number((baseline * 1.001).toPrecision(10)),
    expected_move_pct: 0.1,
    direction_earned: false,
    facts: {},
    confidence: 0.5 + (i % 40) / 100,
    factors: { orderflow: 0.4, funding: 0, macro: -0.35, ai_residual: 0.25 },
    quantiles,
    model_version: 'meridian-ens-1.6.0',
    sigma: 0.004,
    sigma_rw: 0.005,
    realized: baseline * 1.002,
    hit: true,
    crps: 0.001,
    crps_rw: 0.0012,
    crps_garch: 0.0011,
    crps_har_rv: 0.0011,
    covered80: true,
    covered90: true,
    scored_at: now + 15 * MIN,
    backfilled: false,
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: performance.now() - t0, cpuMs: (used.user + used.system) / 1000 };
}

async function readAndParse(path: string): Promise<number> {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(path, { encoding: 'utf8' }) })) {
    if (line) JSON.parse(line);
    n++;
  }
  return n;
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-bench-ledger-'));
  try {
    const file = join(dir, 'ledger.jsonl');
    const write = await timed(() => writeExport(file));
    const baseline = await timed(() => readAndParse(file));
    const verify = await timed(() => runPredictionsCommand({} as Config, ['verify', '--file', file]));
    if (verify.value.code !== 0)
      throw new Error(`verify failed: ${[...verify.value.err, ...verify.value.out].join('\n')}`);
    const result = {
      measuredAt: new Date().toISOString(),
      loadAverage: Math.round(loadavg()[0]! * 10) / 10,
      entries: ENTRIES,
      fileMb: Math.round(statSync(file).size / 1e6),
      buildExportSeconds: Math.round(write.wallMs / 100) / 10,
      verify: {
        wallSeconds: Math.round(verify.wallMs / 10) / 100,
        cpuSeconds: Math.round(verify.cpuMs / 10) / 100,
      },
      readAndParseBaseline: {
        wallSeconds: Math.round(baseline.wallMs / 10) / 100,
        cpuSeconds: Math.round(baseline.cpuMs / 10) / 100,
      },
      verifyCpuSecondsPer100k: Math.round((verify.cpuMs / ENTRIES) * 100_000) / 1000,
      cpuRatioToBaseline: Math.round((verify.cpuMs / baseline.cpuMs) * 100) / 100,
      report: verify.value.out,
      target: 'verify 1 M entries in ≤ 10 s',
      met: ENTRIES >= 1_000_000 ? verify.cpuMs <= 10_000 : null,
    };
    console.log(JSON.stringify(result, null, 2));
    if (ENTRIES >= 1_000_000)
      writeFileSync(
        fileURLToPath(new URL('results/ledger-verify.json', import.meta.url)),
        `${JSON.stringify(result, null, 2)}\n`,
      );
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
