import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Launched, command, launch, stop } from './launch.ts';
import {
  type Answers,
  type ProcessFigures,
  type Settled,
  answers,
  idle,
  ready,
  refreshAfter,
  settle,
} from './probe.ts';
import { sleep, status } from './proc.ts';
import type { Durations } from './embedded.ts';

export interface ScaledRow extends Settled, Answers {
  symbols: number;
  partitions: number;
  readySeconds: number;
  processes: ProcessFigures[];
  refreshMs: number | null;
  databaseMb: number;
  runSeconds: number;
}

const adminUrl = process.env.BENCH_SCALE_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_SCALE_REDIS_URL ?? 'redis://127.0.0.1:6379';
const partitions = Number(process.env.BENCH_SCALE_PARTITIONS ?? 8);

async function admin<T>(q: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await q(c);
  } finally {
    await c.end();
  }
}

/**
 * The scaled layout: PostgreSQL and Redis, two `serve --role worker` processes sharing the universe through
 * `MERIDIAN_MARKET_PARTITIONS` leases, one `serve --role api` replica answering; figures per process.
 */
export async function measureScaled(symbols: number, d: Durations): Promise<ScaledRow> {
  const name = `meridian_scale_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-scale-'));
  const env = {
    DATABASE_URL: url.toString(),
    REDIS_URL: redisUrl,
    // Its own bus channels: pub/sub ignores Redis's database number, and other servers may share it.
    MERIDIAN_BUS_PREFIX: `meridian:bench-${name}:`,
    MERIDIAN_MARKET_PARTITIONS: String(partitions),
    MERIDIAN_DATA_DIR: dataDir,
    ...(symbols === 7 ? {} : { MERIDIAN_SYMBOLS: `top:${symbols}` }),
  };
  const started: Launched[] = [];
  try {
    await command(['migrate'], env);
    const email = 'bench@example.com';
    await command(
      ['users', 'create', '--email', email, '--role', 'admin', '--password', randomBytes(12).toString('hex')],
      env,
    );
    const token = /mrd_\S+/.exec(
      await command(['tokens', 'create', '--email', email, '--name', 'bench'], env),
    )?.[0];
    if (!token) throw new Error('tokens create printed no token');
    const port = 18_600 + (symbols % 100);
    const launched = Date.now();
    const roles = [
      { role: 'worker', port: port + 1 },
      { role: 'worker', port: port + 2 },
      { role: 'api', port },
    ];
    // A worker serves /readyz on a port of its own.
    for (const r of roles)
      started.push(
        launch(['serve', '--role', r.role], {
          ...env,
          [r.role === 'api' ? 'PORT' : 'MERIDIAN_WORKER_PORT']: String(r.port),
        }),
      );
    const alive = () => {
      for (const s of started) s.alive();
    };
    const readySeconds = await ready(port, launched, alive);
    // A worker's history component covers the partitions it leads; each must say ok.
    const settled = await settle(port, symbols, launched, d.settleMaxSeconds, [port + 1, port + 2]);
    alive();
    const processes = await idle(
      started.map((s, i) => ({
        role: `${roles[i]!.role}${roles[i]!.role === 'worker' ? ` ${i + 1}` : ''}`,
        pid: s.pid,
      })),
      d.idleSeconds,
    );
    const measured = await answers(port, token);
    const refreshMs = await refreshAfter(port, launched, settled.settledSeconds);
    const left = d.runSeconds * 1000 - (Date.now() - launched);
    if (left > 0) await sleep(left);
    alive();
    started.forEach((s, i) => {
      processes[i]!.peakRssMb = Math.round(status(s.pid, 'VmHWM:') / 1024);
    });
    const bytes = await admin((c) => c.query<{ size: string }>(`select pg_database_size('${name}') as size`));
    return {
      symbols,
      partitions,
      readySeconds,
      ...settled,
      processes,
      ...measured,
      refreshMs,
      databaseMb: Math.round(Number(bytes.rows[0]!.size) / 1e6),
      runSeconds: Math.round((Date.now() - launched) / 1000),
    };
  } finally {
    for (const s of started.reverse()) await stop(s);
    rmSync(dataDir, { recursive: true, force: true });
    await admin((c) => c.query(`drop database if exists ${name} with (force)`));
  }
}
