import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, stop } from './launch.ts';
import { type Answers, type Settled, answers, idle, ready, refreshAfter, settle } from './probe.ts';
import { childrenRssMb, folderBytes, rssByKind, sleep, status } from './proc.ts';

export interface EmbeddedRow extends Settled, Answers {
  symbols: number;
  readySeconds: number;
  peakRssMb: number;
  steadyRssMb: number;
  idleCpuPercent: number;
  refreshMs: number | null;
  dataFolderMb: number;
  runSeconds: number;
  /** Steady RSS by kind, MB (see `rssByKind`). */
  steadyWasmMb: number;
  steadyMallocMb: number;
  steadyAnonMb: number;
  steadyFilesMb: number;
  /** Peak RSS of the child process that created the database (0: none seen). */
  createPeakRssMb: number;
}

export interface Durations {
  idleSeconds: number;
  runSeconds: number;
  settleMaxSeconds: number;
}

/** One embedded server (PGlite data folder, every job in one process), as `npm start` runs it. */
export async function measureEmbedded(symbols: number, d: Durations): Promise<EmbeddedRow> {
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-scale-'));
  const port = 18_500 + symbols;
  const launched = Date.now();
  const server = launch(['serve'], {
    PORT: String(port),
    MERIDIAN_DATA_DIR: dataDir,
    ...(symbols === 7 ? {} : { MERIDIAN_SYMBOLS: `top:${symbols}` }),
  });
  try {
    let createPeakRssMb = 0;
    const readySeconds = await ready(port, launched, server.alive, () => {
      createPeakRssMb = Math.max(createPeakRssMb, childrenRssMb(server.pid));
    });
    // A first start writes the admin's credentials to a 0600 file in the data folder, never to stdout.
    const token = /API token:\s+(mrd_\S+)/.exec(
      readFileSync(join(dataDir, 'first-start-credentials.txt'), 'utf8'),
    )?.[1];
    if (!token) throw new Error('no bootstrap token written');
    const settled = await settle(port, symbols, launched, d.settleMaxSeconds);
    const [figures] = await idle([{ role: 'all', pid: server.pid }], d.idleSeconds);
    const kinds = rssByKind(server.pid);
    const measured = await answers(port, token);
    const refreshMs = await refreshAfter(port, launched, settled.settledSeconds);
    const left = d.runSeconds * 1000 - (Date.now() - launched);
    if (left > 0) await sleep(left);
    return {
      symbols,
      readySeconds,
      ...settled,
      peakRssMb: Math.round(status(server.pid, 'VmHWM:') / 1024),
      steadyRssMb: figures!.steadyRssMb,
      idleCpuPercent: figures!.idleCpuPercent,
      ...measured,
      refreshMs,
      dataFolderMb: Math.round(folderBytes(dataDir) / 1e6),
      runSeconds: Math.round((Date.now() - launched) / 1000),
      steadyWasmMb: kinds.wasm,
      steadyMallocMb: kinds.malloc,
      steadyAnonMb: kinds.anon,
      steadyFilesMb: kinds.files,
      createPeakRssMb,
    };
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
