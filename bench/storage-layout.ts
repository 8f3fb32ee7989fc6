import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { type DbHandle, openDatabase, tablesOf } from '../src/adapters/db/connect.ts';
import { migrateToLatest } from '../src/adapters/db/migrate.ts';
import { up as createMarketTable } from '../src/adapters/db/migrations/0002_market.ts';
import type { Candle } from '../src/modules/market/candles.ts';
import { mulberry32 } from '../src/shared/random.ts';
import type { CandleRepository, StoredCandle } from '../src/modules/market/repository.ts';
import { createKyselyCandleRepository } from '../src/modules/market/repository.kysely.ts';
import type { MarketTables } from '../src/modules/market/tables.ts';
import { createWriteQueue } from '../src/modules/market/write-queue.ts';

/**
 * Candle storage layouts at the scale of 5,000 symbols × (3 venues + merged) of 1-minute candles
 * (docs/adr/0020-candle-storage-layout.md). Each layout gets the product's write and read patterns:
 *
 * 1. backfill — the first half of `BENCH_LAYOUT_HOURS` (default 6) for every series, symbol by symbol in a
 *    shuffled order (as `backfillDay` enqueues a symbol's series), through the product's write queue
 *    (2,000-row upserts, each two 1,000-row `unnest … on conflict` statements on PostgreSQL);
 * 2. checkpoint A — table + index size, `range()` latency (warm and cold-ish) over the backfilled window;
 * 3. live — the second half, minute by minute: each minute one row per series (20,000 rows at 5,000
 *    symbols) written through the same queue and timed as one cycle (back to back, not 60 s apart);
 * 4. checkpoint B — size again (the difference is what live-written rows take), reads over the backfilled
 *    window, the live window and both, and `latestOpenTime` over random series;
 * 5. layout extras — partitioned: a BRIN index on open_time (size, and whether the history read uses it),
 *    CLUSTER of the live day's partition and the reads again; ClickHouse: the live reads without FINAL;
 *    PGlite: a few live cycles of 5,000 symbols' rows;
 * 6. retention — the oldest day (the backfilled half) dropped: the product's batched DELETE then VACUUM
 *    (single table, PGlite) against DROP of the day's partition (partitioned) or DROP PARTITION (ClickHouse).
 *
 * Layouts (`BENCH_LAYOUT_ONLY`, comma-separated, default all): `single` (today's table, migration 0002),
 * `partitioned` (the same table split by interval, '1m' into daily range partitions on open_time, the same
 * primary key), both in schemas of a database `meridian_layout_bench` created and dropped on
 * `BENCH_LAYOUT_PG` (a server URL with the right to create databases); `clickhouse` (ReplacingMergeTree over
 * HTTP at `BENCH_LAYOUT_CLICKHOUSE`, skipped when unreachable); `pglite` (the embedded default: the product's
 * migrations on PGlite in a temporary data folder, on its own thread as `npm start` runs it, at
 * `BENCH_LAYOUT_PGLITE_SYMBOLS`, default 200). The PostgreSQL and PGlite layouts are written and read by the
 * product's own repository (repository.kysely.ts) and write queue.
 *
 * Cold-ish reads: before every `COLD_GROUP` reads the layout's pages are pushed out of the engine's cache
 * (PostgreSQL: CHECKPOINT, then an index scan over a scratch table twice the size of shared_buffers;
 * ClickHouse: SYSTEM DROP MARK/UNCOMPRESSED CACHE; PGlite: close and reopen) and out of the OS page cache
 * file by file with posix_fadvise(DONTNEED) on the layout's own files (python3; needs read access to the data
 * files), then one read of a missing series warms catalogs and upper index levels again; every cold read asks
 * for a series not read since. No global cache drop is used, and a virtual disk may still be cached by its host.
 *
 * At the defaults each PostgreSQL layout takes ≈ 5 minutes on 2 cores, ClickHouse ≈ 4, PGlite ≈ 1.
 * Results are merged into bench/results/storage-layout.json, one entry per layout (a run replaces the entries
 * of the layouts it ran; `BENCH_LAYOUT_TAG` stores them as `layout@TAG`, a second scale beside the default).
 */

const env = process.env;
const SYMBOLS = Number(env.BENCH_LAYOUT_SYMBOLS ?? 5000);
const PGLITE_SYMBOLS = Number(env.BENCH_LAYOUT_PGLITE_SYMBOLS ?? 200);
const HOURS = Number(env.BENCH_LAYOUT_HOURS ?? 6);
const WARM_READS = Number(env.BENCH_LAYOUT_READS ?? 1000);
const COLD_READS = Number(env.BENCH_LAYOUT_COLD_READS ?? 60);
const COLD_GROUP = 20;
const DELETE_SECONDS = Number(env.BENCH_LAYOUT_DELETE_SECONDS ?? 240);
const PGLITE_WIDE_CYCLES = Number(env.BENCH_LAYOUT_PGLITE_WIDE_CYCLES ?? 5);
const ONLY = (env.BENCH_LAYOUT_ONLY ?? 'single,partitioned,clickhouse,pglite')
  .split(',')
  .map((s) => s.trim());
const PG_ADMIN = env.BENCH_LAYOUT_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CH_URL = env.BENCH_LAYOUT_CLICKHOUSE ?? 'http://127.0.0.1:8123';
const DB_NAME = 'meridian_layout_bench';
const RESULTS = join(import.meta.dirname, 'results', 'storage-layout.json');
/** Stores this run's entries as `layout@TAG` (a second scale beside the default one). */
const TAG = env.BENCH_LAYOUT_TAG ? `@${env.BENCH_LAYOUT_TAG}` : '';

/** The merged series and the three venues: 4 series per symbol. */
const VENUES = ['merged', 'binance', 'okx', 'bybit'] as const;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Retention and scale of the question asked. */
const TARGET = { symbols: 5000, seriesPerSymbol: VENUES.length, retentionDays: 35 };
const ROWS_PER_SYMBOL_DAY = VENUES.length * 1440;

if (HOURS % 2 !== 0 || HOURS < 2 || HOURS > 48) throw new Error('BENCH_LAYOUT_HOURS: an even number, 2–48');
/** The backfilled half ends at midnight: it fills day 0, the live half starts day 1. */
const DAY0 = Date.UTC(2026, 9, 31);
const DAY1 = DAY0 + DAY;
const T0 = DAY1 - (HOURS / 2) * HOUR;
const T_END = DAY1 + (HOURS / 2) * HOUR;

// ---------------------------------------------------------------------------------------------------------
// Data

const symbolName = (i: number) => `S${String(i).padStart(4, '0')}USDT`;

function mix(a: number): number {
  let x = a | 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** A deterministic candle of series (s, v) at minute t: prices on a 1e-5 relative tick around a base. */
function candle(prefix: string, s: number, v: number, t: number): StoredCandle {
  const h1 = mix(s * 8 + v + mix(t / MINUTE));
  const h2 = mix(h1 + 0x9e3779b9);
  const base = 1 + (s % 997) * 0.37;
  const tick = base * 1e-5;
  const q = (x: number) => Math.round(x / tick) * tick;
  const open = q(base * (1 + ((h1 & 0xffff) / 0xffff - 0.5) * 0.02));
  const close = q(base * (1 + ((h1 >>> 16) / 0xffff - 0.5) * 0.02));
  const high = q(Math.max(open, close) * (1 + (h2 & 0xff) / 0xff / 500));
  const low = q(Math.min(open, close) * (1 - (h2 >>> 24) / 0xff / 500));
  const volume = Math.round(((h2 >>> 8) & 0xffff) * 10) / 100;
  return {
    symbol: `${prefix}${symbolName(s)}`,
    venue: VENUES[v]!,
    interval: '1m',
    openTime: t,
    open,
    high,
    low,
    close,
    volume,
    quoteVolume: volume * close,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Statistics

const q = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : Number.NaN;
const r2 = (n: number) => Math.round(n * 100) / 100;
const r3 = (n: number) => Math.round(n * 1000) / 1000;

function latency(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const mean = ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length);
  return {
    n: ms.length,
    p50Ms: r3(q(s, 0.5)),
    p90Ms: r3(q(s, 0.9)),
    p99Ms: r3(q(s, 0.99)),
    maxMs: r3(s.at(-1) ?? 0),
    meanMs: r3(mean),
  };
}

const mb = (bytes: number) => r2(bytes / 1e6);

// ---------------------------------------------------------------------------------------------------------
// Cache eviction, file by file

const FADVISE = `
import os, sys
n = 0
for p in sys.stdin.read().split('\\n'):
    if not p:
        continue
    try:
        fd = os.open(p, os.O_RDONLY)
    except OSError:
        continue
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        n += 1
    finally:
        os.close(fd)
print(n)
`;

/** Drops the files' clean pages from the OS page cache (after an fsync each); how many files it could open. */
function fadvise(files: string[]): number {
  if (!files.length) return 0;
  const out = spawnSync('python3', ['-c', FADVISE], { input: files.join('\n'), encoding: 'utf8' });
  if (out.status !== 0) return 0;
  return Number(out.stdout.trim()) || 0;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Random 8 KB reads of a 256 MB file after dropping it from the page cache: what a cold page costs here. */
function diskProbe(): { p50Ms: number; p99Ms: number } | undefined {
  const code = `
import os, random, time, tempfile
d = tempfile.mkdtemp()
p = os.path.join(d, 'probe')
with open(p, 'wb') as f:
    for i in range(256):
        f.write(os.urandom(1 << 20))
    f.flush()
    os.fsync(f.fileno())
fd = os.open(p, os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
n = (256 << 20) // 8192
rng = random.Random(7)
ts = []
for i in range(400):
    off = rng.randrange(n) * 8192
    t = time.perf_counter()
    os.pread(fd, 8192, off)
    ts.append((time.perf_counter() - t) * 1000)
os.close(fd)
os.remove(p)
os.rmdir(d)
ts.sort()
print(ts[200], ts[396])
`;
  const out = spawnSync('python3', ['-c', code], { encoding: 'utf8', env: { ...env, TMPDIR: tmpdir() } });
  if (out.status !== 0) return undefined;
  const [p50, p99] = out.stdout.trim().split(' ').map(Number);
  return { p50Ms: r3(p50!), p99Ms: r3(p99!) };
}

// ---------------------------------------------------------------------------------------------------------
// Layouts

interface SizeInfo {
  rows: number;
  heapBytes: number;
  indexBytes: number;
  totalBytes: number;
  detail?: Record<string, unknown>;
}

interface Layout {
  name: string;
  /** What the product's write queue and `market-history` call. */
  repository: Pick<CandleRepository, 'upsert' | 'range'> & Partial<Pick<CandleRepository, 'latestOpenTime'>>;
  size(): Promise<SizeInfo>;
  /** Pushes the layout's pages out of the engine's cache and the OS page cache; says how. */
  evict(): Promise<string>;
  /** Pages touched by one read (PostgreSQL): EXPLAIN (ANALYZE, BUFFERS). */
  explain?(symbol: string, venue: string, from: number, to: number): Promise<Record<string, number>>;
  /** Drops day 0 (everything before DAY1). */
  retention(): Promise<Record<string, unknown>>;
  /** Layout-specific measurements after checkpoint B. */
  extras?(ctx: Ctx): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

interface Ctx {
  symbols: number;
  used: Set<string>;
  sinceEvict: Set<string>;
  rand: () => number;
  layout: Layout;
}

/** One admin connection to the bench database (or the server's default one). */
async function adminClient(database?: string): Promise<pg.Client> {
  const url = new URL(PG_ADMIN);
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

function layoutUrl(schema: string): string {
  const url = new URL(PG_ADMIN);
  url.pathname = `/${DB_NAME}`;
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

const benchTimeouts = { connectMs: 10_000, statementMs: 900_000, idleInTransactionMs: 900_000 };

/** PostgreSQL pieces shared by the single-table and partitioned layouts. */
async function postgresLayout(
  name: string,
  schema: string,
  create: (db: Kysely<unknown>, admin: pg.Client) => Promise<void>,
  retention: (admin: pg.Client) => Promise<Record<string, unknown>>,
  extras?: (admin: pg.Client, ctx: Ctx) => Promise<Record<string, unknown>>,
): Promise<Layout> {
  const admin = await adminClient(DB_NAME);
  await admin.query(`create schema ${schema}`);
  const handle: DbHandle = await openDatabase({
    databaseUrl: layoutUrl(schema),
    poolSize: 10,
    timeouts: benchTimeouts,
  });
  await create(handle.db as unknown as Kysely<unknown>, admin);
  const repository = createKyselyCandleRepository(tablesOf<MarketTables>(handle.db));
  const dataDir = (await admin.query('show data_directory')).rows[0].data_directory as string;
  const sharedBuffers = Number(
    (await admin.query(`select pg_size_bytes(current_setting('shared_buffers')) as b`)).rows[0].b,
  );
  await admin.query(`set statement_timeout = 0`);

  async function relationFiles(): Promise<string[]> {
    const { rows } = await admin.query(
      `select pg_relation_filepath(c.oid) as path from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relkind in ('r', 'i', 't') and pg_relation_filepath(c.oid) is not null`,
      [schema],
    );
    const out: string[] = [];
    const listed = new Map<string, string[]>();
    for (const { path } of rows as { path: string }[]) {
      const full = join(dataDir, path);
      const dir = dirname(full);
      const base = basename(full);
      let names = listed.get(dir);
      if (!names) {
        try {
          names = readdirSync(dir);
        } catch {
          names = [];
        }
        listed.set(dir, names);
      }
      for (const f of names)
        if (f === base || f.startsWith(`${base}.`) || f.startsWith(`${base}_`)) out.push(join(dir, f));
    }
    return out;
  }

  let scratchReady = false;
  return {
    name,
    repository,
    async size() {
      const { rows } = await admin.query(
        `select coalesce(sum(pg_table_size(c.oid)), 0)::bigint as heap, coalesce(sum(pg_indexes_size(c.oid)), 0)::bigint as idx,
                count(*)::int as relations
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = $1 and c.relkind = 'r'`,
        [schema],
      );
      const count = await admin.query(`select count(*)::bigint as n from ${schema}.market_candles`);
      const heap = Number(rows[0].heap);
      const index = Number(rows[0].idx);
      return {
        rows: Number(count.rows[0].n),
        heapBytes: heap,
        indexBytes: index,
        totalBytes: heap + index,
        detail: { tables: rows[0].relations },
      };
    },
    async evict() {
      if (!scratchReady) {
        // Twice shared_buffers of 1 KB rows, read by an index scan (not a ring-buffered sequential scan).
        const rows = Math.ceil((2 * sharedBuffers) / 1100);
        await admin.query(`drop table if exists public.evict_scratch`);
        await admin.query(
          `create table public.evict_scratch as select g as id, repeat('x', 1000) as pad from generate_series(1, ${rows}) g`,
        );
        await admin.query(`create index on public.evict_scratch (id)`);
        await admin.query(`vacuum analyze public.evict_scratch`);
        scratchReady = true;
      }
      await admin.query('checkpoint');
      await admin.query('begin');
      await admin.query('set local enable_seqscan = off');
      await admin.query('set local enable_bitmapscan = off');
      await admin.query('select sum(length(pad)) from public.evict_scratch where id > 0');
      await admin.query('commit');
      const files = await relationFiles();
      const dropped = fadvise(files);
      return `CHECKPOINT; index scan over ${mb(2 * sharedBuffers)} MB scratch (shared_buffers ${mb(sharedBuffers)} MB); posix_fadvise DONTNEED on ${dropped}/${files.length} relation files`;
    },
    async explain(symbol, venue, from, to) {
      const { rows } = await admin.query(
        `explain (analyze, buffers, format json)
         select open_time, open, high, low, close, volume, quote_volume from ${schema}.market_candles
         where symbol = $1 and venue = $2 and interval = '1m' and open_time >= $3 and open_time < $4
         order by open_time asc limit 1000`,
        [symbol, venue, from, to],
      );
      const plan = rows[0]['QUERY PLAN'][0];
      return {
        rows: plan.Plan['Actual Rows'],
        sharedHit: plan.Plan['Shared Hit Blocks'],
        sharedRead: plan.Plan['Shared Read Blocks'],
        executionMs: r3(plan['Execution Time']),
        planningMs: r3(plan['Planning Time']),
      };
    },
    retention: () => retention(admin),
    extras: extras ? (ctx) => extras(admin, ctx) : undefined,
    async close() {
      await handle.close();
      await admin.end();
    },
  };
}

/** The retention statement of src/app/retention.ts, batch by batch, bounded by DELETE_SECONDS. */
async function productDelete(run: (statement: string) => Promise<number>, table: string, cutoff: number) {
  const batches: number[] = [];
  let deleted = 0;
  const started = performance.now();
  let bounded = false;
  for (;;) {
    const t = performance.now();
    const n = await run(
      `delete from ${table} where ctid in (select ctid from ${table} where open_time < ${cutoff} and interval = '1m' limit 5000)`,
    );
    batches.push(performance.now() - t);
    deleted += n;
    if (n < 5000) break;
    if ((performance.now() - started) / 1000 > DELETE_SECONDS) {
      bounded = true;
      break;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const tenth = Math.max(1, Math.floor(batches.length / 10));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    method: 'DELETE … WHERE ctid IN (SELECT ctid … LIMIT 5000), repeated (src/app/retention.ts)',
    rowsDeleted: deleted,
    seconds: r2(seconds),
    rowsPerSec: Math.round(deleted / seconds),
    batches: batches.length,
    firstTenthBatchMs: r2(mean(batches.slice(0, tenth))),
    lastTenthBatchMs: r2(mean(batches.slice(-tenth))),
    stoppedAtBound: bounded,
  };
}

async function singleLayout(): Promise<Layout> {
  return postgresLayout(
    'single',
    'single',
    async (db) => {
      await createMarketTable(db);
    },
    async (admin) => {
      const del = await productDelete(
        async (s) => (await admin.query(s)).rowCount ?? 0,
        'single.market_candles',
        DAY1,
      );
      const t = performance.now();
      await admin.query('vacuum single.market_candles');
      const vacuumSeconds = r2((performance.now() - t) / 1000);
      return { ...del, vacuumSeconds };
    },
  );
}

const partName = (day: number) =>
  `market_candles_1m_${new Date(day).toISOString().slice(0, 10).replaceAll('-', '')}`;
/** Daily partitions for 35 days of retention up to day 1, and the next day created ahead. */
const PARTITION_DAYS = Array.from(
  { length: TARGET.retentionDays + 1 },
  (_, i) => DAY1 - (TARGET.retentionDays - 1 - i) * DAY,
);

/**
 * The table keeps its name, columns and primary key, so the product's statements run unchanged. Only 1-minute
 * rows expire (src/app/retention.ts keeps the roll-ups), so it is split by interval first: '1m' into daily
 * range partitions on open_time, every other interval into one default partition that is never dropped.
 */
const PARTITIONED_DDL = [
  `create table partitioned.market_candles (
    symbol text not null, venue text not null, interval text not null, open_time bigint not null,
    open double precision not null, high double precision not null, low double precision not null,
    close double precision not null, volume double precision not null, quote_volume double precision not null,
    constraint market_candles_pk primary key (symbol, venue, interval, open_time)
  ) partition by list (interval)`,
  `create table partitioned.market_candles_1m partition of partitioned.market_candles for values in ('1m')
    partition by range (open_time)`,
  'create table partitioned.market_candles_rollups partition of partitioned.market_candles default',
];

async function partitionedLayout(): Promise<Layout> {
  return postgresLayout(
    'partitioned',
    'partitioned',
    async (_db, admin) => {
      for (const statement of PARTITIONED_DDL) await admin.query(statement);
      for (const day of PARTITION_DAYS)
        await admin.query(
          `create table partitioned.${partName(day)} partition of partitioned.market_candles_1m for values from (${day}) to (${day + DAY})`,
        );
    },
    async (admin) => {
      const t = performance.now();
      await admin.query(`drop table partitioned.${partName(DAY0)}`);
      const seconds = (performance.now() - t) / 1000;
      return {
        method: `DROP TABLE ${partName(DAY0)} (the day's partition)`,
        seconds: r3(seconds),
        rowsDeleted: 'the whole day',
      };
    },
    async (admin, ctx) => {
      // BRIN on open_time: its size, and whether the planner takes it for the history read.
      let t = performance.now();
      await admin.query(
        'create index market_candles_open_time_brin on partitioned.market_candles using brin (open_time)',
      );
      const brinSeconds = (performance.now() - t) / 1000;
      const brinBytes = Number(
        (
          await admin.query(
            `select coalesce(sum(pg_relation_size(c.oid)), 0)::bigint as b from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = 'partitioned' and c.relkind = 'i' and c.relname like '%open_time%'`,
          )
        ).rows[0].b,
      );
      await admin.query('analyze partitioned.market_candles');
      const plan = await admin.query(
        `explain select open_time from partitioned.market_candles where symbol = $1 and venue = 'okx' and interval = '1m'
         and open_time >= $2 and open_time < $3 order by open_time limit 1000`,
        [symbolName(1), T0, T_END],
      );
      const planText = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      await admin.query('drop index partitioned.market_candles_open_time_brin');
      // Re-sort the live day's partition by the key (what a nightly job would do to yesterday's).
      t = performance.now();
      await admin.query(`cluster partitioned.${partName(DAY1)} using ${partName(DAY1)}_pkey`);
      const clusterSeconds = (performance.now() - t) / 1000;
      const afterCluster = await readSet(ctx, 'live window after CLUSTER', DAY1, T_END);
      return {
        brin: {
          createSeconds: r2(brinSeconds),
          bytes: brinBytes,
          usedByHistoryRead: /brin/i.test(planText),
        },
        cluster: {
          statement: `CLUSTER ${partName(DAY1)} USING ${partName(DAY1)}_pkey`,
          rows: SYMBOLS * VENUES.length * (HOURS / 2) * 60,
          seconds: r2(clusterSeconds),
          readsAfter: afterCluster,
        },
      };
    },
  );
}

// ---- ClickHouse

async function chQuery(query: string, body?: string): Promise<string> {
  const url = body === undefined ? `${CH_URL}/` : `${CH_URL}/?query=${encodeURIComponent(query)}`;
  const res = await fetch(url, { method: 'POST', body: body ?? query });
  const text = await res.text();
  if (!res.ok) throw new Error(`ClickHouse ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

async function clickhouseLayout(): Promise<Layout> {
  const db = DB_NAME;
  await chQuery(`DROP DATABASE IF EXISTS ${db}`);
  await chQuery(`CREATE DATABASE ${db}`);
  await chQuery(`
    CREATE TABLE ${db}.market_candles (
      symbol String, venue String, \`interval\` String, open_time Int64,
      open Float64, high Float64, low Float64, close Float64, volume Float64, quote_volume Float64
    ) ENGINE = ReplacingMergeTree()
    PARTITION BY intDiv(open_time, ${DAY})
    ORDER BY (symbol, venue, \`interval\`, open_time)`);
  const cols = 'open_time, open, high, low, close, volume, quote_volume';
  let final = 'FINAL';
  const repository: Layout['repository'] = {
    async upsert(rows) {
      let body = '';
      for (const r of rows)
        body += `${r.symbol}\t${r.venue}\t${r.interval}\t${r.openTime}\t${r.open}\t${r.high}\t${r.low}\t${r.close}\t${r.volume}\t${r.quoteVolume}\n`;
      await chQuery(`INSERT INTO ${db}.market_candles FORMAT TabSeparated`, body);
    },
    async range(symbol, venue, interval, from, to, limit) {
      // FINAL: the upsert's semantics (the last row per key) before background merges have deduplicated.
      const text = await chQuery(
        `SELECT ${cols} FROM ${db}.market_candles ${final} WHERE symbol = '${symbol}' AND venue = '${venue}'
         AND \`interval\` = '${interval}' AND open_time >= ${from} AND open_time < ${to} ORDER BY open_time LIMIT ${limit}
         FORMAT TabSeparated`,
      );
      const out: Candle[] = [];
      for (const line of text.split('\n')) {
        if (!line) continue;
        const [t, o, h, l, c, v, qv] = line.split('\t').map(Number);
        out.push({ openTime: t!, open: o!, high: h!, low: l!, close: c!, volume: v!, quoteVolume: qv! });
      }
      return out;
    },
  };
  const partsQuery = `FROM system.parts WHERE database = '${db}' AND table = 'market_candles' AND active`;
  async function settle(): Promise<number> {
    const t = performance.now();
    while (performance.now() - t < 120_000) {
      const n = Number((await chQuery(`SELECT count() FROM system.merges WHERE database = '${db}'`)).trim());
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    return r2((performance.now() - t) / 1000);
  }
  return {
    name: 'clickhouse',
    repository,
    async size() {
      const mergesWaitSeconds = await settle();
      const [rows, bytes, compressed, uncompressed, marks, parts] = (
        await chQuery(
          `SELECT sum(rows), sum(bytes_on_disk), sum(data_compressed_bytes), sum(data_uncompressed_bytes),
           sum(marks_bytes), count() ${partsQuery} FORMAT TabSeparated`,
        )
      )
        .trim()
        .split('\t')
        .map(Number);
      return {
        rows: rows!,
        heapBytes: bytes! - marks!,
        indexBytes: marks!,
        totalBytes: bytes!,
        detail: {
          activeParts: parts,
          compressedBytes: compressed,
          uncompressedBytes: uncompressed,
          mergesWaitSeconds,
        },
      };
    },
    async evict() {
      await chQuery('SYSTEM DROP MARK CACHE');
      await chQuery('SYSTEM DROP UNCOMPRESSED CACHE');
      const paths = (await chQuery(`SELECT path ${partsQuery} FORMAT TabSeparated`))
        .split('\n')
        .filter(Boolean);
      const files = paths.flatMap((p) => filesUnder(p));
      const dropped = fadvise(files);
      return `SYSTEM DROP MARK CACHE, DROP UNCOMPRESSED CACHE; posix_fadvise DONTNEED on ${dropped}/${files.length} part files`;
    },
    async extras(ctx) {
      // What FINAL costs: the same reads without it (rows not yet merged could then come back twice).
      final = '';
      try {
        return { withoutFinal: await readSet(ctx, 'live window without FINAL', DAY1, T_END) };
      } finally {
        final = 'FINAL';
      }
    },
    async retention() {
      const t = performance.now();
      await chQuery(`ALTER TABLE ${db}.market_candles DROP PARTITION ${Math.floor(DAY0 / DAY)}`);
      return {
        method: 'ALTER TABLE … DROP PARTITION (the day)',
        seconds: r3((performance.now() - t) / 1000),
        rowsDeleted: 'the whole day',
      };
    },
    async close() {
      await chQuery(`DROP DATABASE IF EXISTS ${db}`);
    },
  };
}

// ---- PGlite, the embedded default

async function pgliteLayout(): Promise<Layout & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-layout-pglite-'));
  const open = async () => openDatabase({ dataDir, thread: true });
  let handle = await open();
  await migrateToLatest(handle.db);
  let repository = createKyselyCandleRepository(tablesOf<MarketTables>(handle.db));
  const reopen: number[] = [];
  const layout: Layout & { dataDir: string } = {
    name: 'pglite',
    dataDir,
    repository: {
      upsert: (rows, term) => repository.upsert(rows, term),
      range: (...args) => repository.range(...args),
      latestOpenTime: (...args) => repository.latestOpenTime(...args),
    },
    async size() {
      const { rows } = await sql<{ heap: number; idx: number; n: number }>`
        select pg_table_size('market_candles')::bigint as heap, pg_indexes_size('market_candles')::bigint as idx,
               (select count(*) from market_candles)::bigint as n`.execute(handle.db);
      const heap = Number(rows[0]!.heap);
      const index = Number(rows[0]!.idx);
      const folder = filesUnder(dataDir).reduce((n, f) => n + (statSize(f) ?? 0), 0);
      return {
        rows: Number(rows[0]!.n),
        heapBytes: heap,
        indexBytes: index,
        totalBytes: heap + index,
        detail: { dataFolderBytes: folder },
      };
    },
    async evict() {
      await sql`checkpoint`.execute(handle.db);
      await handle.close();
      const files = filesUnder(dataDir);
      const dropped = fadvise(files);
      const t = performance.now();
      handle = await open();
      repository = createKyselyCandleRepository(tablesOf<MarketTables>(handle.db));
      reopen.push(performance.now() - t);
      return `close; posix_fadvise DONTNEED on ${dropped}/${files.length} data-folder files; reopen (${Math.round(reopen.at(-1)!)} ms)`;
    },
    async retention() {
      const del = await productDelete(
        async (s) => Number((await sql.raw(s).execute(handle.db)).numAffectedRows ?? 0),
        'market_candles',
        DAY1,
      );
      const t = performance.now();
      await sql`vacuum market_candles`.execute(handle.db);
      return { ...del, vacuumSeconds: r2((performance.now() - t) / 1000) };
    },
    async extras() {
      // The ingest ceiling: live cycles of 5,000 symbols' rows (new series) into the same embedded store.
      const queue = createWriteQueue({ repository: layout.repository, term: () => undefined });
      const cycles: number[] = [];
      for (let k = 0; k < PGLITE_WIDE_CYCLES; k++) {
        const t = T_END + k * MINUTE;
        const rows: StoredCandle[] = [];
        for (let s = 0; s < TARGET.symbols; s++)
          for (let v = 0; v < VENUES.length; v++) rows.push(candle('W', s, v, t));
        const started = performance.now();
        queue.enqueue(rows);
        await queue.flush();
        cycles.push(performance.now() - started);
      }
      const stats = latency(cycles);
      return {
        wideLiveCycles: {
          symbols: TARGET.symbols,
          rowsPerCycle: TARGET.symbols * VENUES.length,
          cycleSeconds: r2(stats.meanMs / 1000),
          maxCycleSeconds: r2(stats.maxMs / 1000),
          rowsPerSec: Math.round((TARGET.symbols * VENUES.length) / (stats.meanMs / 1000)),
          cycles: cycles.length,
        },
      };
    },
    async close() {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return layout;
}

function statSize(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The measurement, the same for every layout

/**
 * A (symbol, venue) never read before in this run; once every series has been read (at the PGlite scale), one
 * not read since the last eviction.
 */
function pick(ctx: Ctx): [string, string] {
  for (let attempt = 0; ; attempt++) {
    if (attempt === 100_000) ctx.used.clear();
    const s = Math.floor(ctx.rand() * ctx.symbols);
    const v = Math.floor(ctx.rand() * VENUES.length);
    const key = `${s}/${v}`;
    if (!ctx.used.has(key) && !ctx.sinceEvict.has(key)) {
      ctx.used.add(key);
      ctx.sinceEvict.add(key);
      return [symbolName(s), VENUES[v]!];
    }
  }
}

/**
 * Evicts, then reads a series that does not exist: catalogs and the upper index levels, hot in any running
 * server (and what a reopened PGlite must load first), are warm again; the series' own pages stay cold.
 */
async function evict(ctx: Ctx): Promise<string> {
  ctx.sinceEvict.clear();
  const how = await ctx.layout.evict();
  await ctx.layout.repository.range('NONE', 'merged', '1m', T0, T_END, 1000);
  return `${how}; then one read of a missing series (catalogs, upper index levels)`;
}

/** Warm: 200 series read once, then WARM_READS reads among them. Cold-ish: COLD_READS never-read series. */
async function readSet(ctx: Ctx, label: string, from: number, to: number) {
  const { layout } = ctx;
  const warmSet = Array.from({ length: Math.min(200, WARM_READS) }, () => pick(ctx));
  for (const [s, v] of warmSet) await layout.repository.range(s, v, '1m', from, to, 1000);
  const warm: number[] = [];
  let rows = 0;
  for (let i = 0; i < WARM_READS; i++) {
    const [s, v] = warmSet[Math.floor(ctx.rand() * warmSet.length)]!;
    const t = performance.now();
    rows += (await layout.repository.range(s, v, '1m', from, to, 1000)).length;
    warm.push(performance.now() - t);
  }
  const cold: number[] = [];
  let evicted = '';
  for (let i = 0; i < COLD_READS; i++) {
    if (i % COLD_GROUP === 0) evicted = await evict(ctx);
    const [s, v] = pick(ctx);
    const t = performance.now();
    await layout.repository.range(s, v, '1m', from, to, 1000);
    cold.push(performance.now() - t);
  }
  let pages: Record<string, unknown> | undefined;
  if (layout.explain) {
    await evict(ctx);
    const sample = Array.from({ length: 5 }, () => pick(ctx));
    const coldPlans = [];
    for (const [s, v] of sample) coldPlans.push(await layout.explain(s, v, from, to));
    const warmPlans = [];
    for (const [s, v] of sample) warmPlans.push(await layout.explain(s, v, from, to));
    const avg = (xs: Record<string, number>[], k: string) =>
      r2(xs.reduce((a, x) => a + (x[k] ?? 0), 0) / xs.length);
    pages = {
      coldSharedRead: avg(coldPlans, 'sharedRead'),
      coldSharedHit: avg(coldPlans, 'sharedHit'),
      coldExecutionMs: avg(coldPlans, 'executionMs'),
      warmSharedHit: avg(warmPlans, 'sharedHit'),
      warmExecutionMs: avg(warmPlans, 'executionMs'),
      planningMs: avg(warmPlans, 'planningMs'),
    };
  }
  const result = {
    window: label,
    rowsPerRead: r2(rows / Math.max(1, WARM_READS)),
    warm: latency(warm),
    cold: latency(cold),
    coldMethod: evicted,
    pagesPerRead: pages,
  };
  console.log(
    `  reads ${label}: ${result.rowsPerRead} rows — warm p50 ${result.warm.p50Ms} p99 ${result.warm.p99Ms} ms; cold p50 ${result.cold.p50Ms} p99 ${result.cold.p99Ms} ms${pages ? `; pages cold read/hit ${pages.coldSharedRead}/${pages.coldSharedHit}` : ''}`,
  );
  return result;
}

function perSymbolDay(bytes: number, rows: number) {
  return { bytesPerRow: r2(bytes / rows), mbPerSymbolDay: r3(((bytes / rows) * ROWS_PER_SYMBOL_DAY) / 1e6) };
}

async function measure(layout: Layout, symbols: number) {
  const started = performance.now();
  const load = [loadavg()[0]!];
  const ctx: Ctx = { symbols, used: new Set(), sinceEvict: new Set(), rand: mulberry32(42), layout };
  let warnings = 0;
  const queue = createWriteQueue({
    repository: layout.repository,
    term: () => undefined,
    log: {
      warn: () => {
        warnings++;
      },
    },
  });
  const drain = async () => {
    await queue.flush();
    while (queue.pending() > 0) {
      await new Promise((r) => setTimeout(r, 1000));
      await queue.flush();
    }
  };

  // 1. backfill: symbol by symbol (shuffled), each symbol's series over [T0, DAY1).
  const order = Array.from({ length: symbols }, (_, i) => i);
  const shuffle = mulberry32(7);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(shuffle() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const backfillRows = symbols * VENUES.length * (HOURS / 2) * 60;
  let t = performance.now();
  for (const s of order) {
    const rows: StoredCandle[] = [];
    for (let v = 0; v < VENUES.length; v++)
      for (let m = T0; m < DAY1; m += MINUTE) rows.push(candle('', s, v, m));
    queue.enqueue(rows);
    if (queue.pending() >= 20_000) await drain();
  }
  await drain();
  const backfillSeconds = (performance.now() - t) / 1000;
  const backfill = {
    rows: backfillRows,
    seconds: r2(backfillSeconds),
    rowsPerSec: Math.round(backfillRows / backfillSeconds),
  };
  console.log(`  backfill: ${backfillRows} rows in ${backfill.seconds} s = ${backfill.rowsPerSec} rows/s`);

  // 2. checkpoint A
  const sizeA = await layout.size();
  console.log(`  size A: ${sizeA.rows} rows, ${mb(sizeA.totalBytes)} MB`);
  const readsA = await readSet(ctx, 'backfilled window (size A)', T0, DAY1);

  // 3. live: minute by minute, one row per series, each minute one timed cycle through the write queue.
  const cycles: number[] = [];
  t = performance.now();
  for (let m = DAY1; m < T_END; m += MINUTE) {
    const rows: StoredCandle[] = [];
    for (let s = 0; s < symbols; s++) for (let v = 0; v < VENUES.length; v++) rows.push(candle('', s, v, m));
    const c = performance.now();
    queue.enqueue(rows);
    await drain();
    cycles.push(performance.now() - c);
  }
  const liveStats = latency(cycles);
  const rowsPerCycle = symbols * VENUES.length;
  const tenth = Math.max(1, Math.floor(cycles.length / 10));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const live = {
    cycles: cycles.length,
    rowsPerCycle,
    cycleSeconds: {
      p50: r3(liveStats.p50Ms / 1000),
      p99: r3(liveStats.p99Ms / 1000),
      max: r3(liveStats.maxMs / 1000),
      mean: r3(liveStats.meanMs / 1000),
    },
    firstTenthMeanSeconds: r3(mean(cycles.slice(0, tenth)) / 1000),
    lastTenthMeanSeconds: r3(mean(cycles.slice(-tenth)) / 1000),
    rowsPerSec: Math.round(rowsPerCycle / (liveStats.meanMs / 1000)),
    shareOf60sBudget: r3(liveStats.meanMs / 60_000),
  };
  console.log(
    `  live: ${cycles.length} cycles of ${rowsPerCycle} rows — p50 ${live.cycleSeconds.p50} s, p99 ${live.cycleSeconds.p99} s, ${live.rowsPerSec} rows/s`,
  );

  // 4. checkpoint B
  const sizeB = await layout.size();
  console.log(`  size B: ${sizeB.rows} rows, ${mb(sizeB.totalBytes)} MB`);
  const readsB = [
    await readSet(ctx, 'backfilled window (size B)', T0, DAY1),
    await readSet(ctx, 'live window (size B)', DAY1, T_END),
    await readSet(ctx, 'both windows (size B)', T0, T_END),
  ];

  // The newest stored minute of a series (the working window's start-up query), over random series.
  let latestOpenTime: ReturnType<typeof latency> | undefined;
  if (layout.repository.latestOpenTime) {
    const ms: number[] = [];
    for (let i = 0; i < WARM_READS; i++) {
      const s = symbolName(Math.floor(ctx.rand() * symbols));
      const v = VENUES[Math.floor(ctx.rand() * VENUES.length)]!;
      const t = performance.now();
      await layout.repository.latestOpenTime(s, v, '1m');
      ms.push(performance.now() - t);
    }
    latestOpenTime = latency(ms);
    console.log(`  latestOpenTime: p50 ${latestOpenTime.p50Ms} p99 ${latestOpenTime.p99Ms} ms`);
  }

  // 5. extras, 6. retention
  const extras = layout.extras ? await layout.extras(ctx) : undefined;
  const retention = await layout.retention();
  console.log(`  retention: ${JSON.stringify(retention)}`);
  const sizeAfter = await layout.size();
  load.push(loadavg()[0]!);

  const liveBytes = sizeB.totalBytes - sizeA.totalBytes;
  const liveRows = sizeB.rows - sizeA.rows;
  return {
    layout: layout.name,
    measuredAt: new Date().toISOString(),
    scale: { symbols, series: symbols * VENUES.length, hoursBackfilled: HOURS / 2, hoursLive: HOURS / 2 },
    loadAverage1m: { start: r2(load[0]!), end: r2(load[1]!) },
    seconds: r2((performance.now() - started) / 1000),
    writeQueueWarnings: warnings,
    backfill,
    sizeA,
    live,
    sizeB,
    disk: {
      backfilled: perSymbolDay(sizeA.totalBytes, sizeA.rows),
      liveWritten: perSymbolDay(liveBytes, liveRows),
      all: perSymbolDay(sizeB.totalBytes, sizeB.rows),
    },
    reads: [readsA, ...readsB],
    latestOpenTime,
    extras,
    retention,
    sizeAfterRetention: sizeAfter,
  };
}

type Measured = Awaited<ReturnType<typeof measure>> & {
  machine?: { randomRead8kAfterFadvise?: { p50Ms: number } };
};

/** A network disk's random 8 KB read, for the cold-read extrapolation (an assumption, not measured here). */
const NETWORK_DISK_PAGE_MS = 0.5;

/**
 * The question's scale from a layout's measured figures (extrapolated, never measured): disk and DELETE
 * linear in rows; VACUUM between linear in rows deleted (its heap pass) and linear in table size (its pass over
 * every index page); a cold 1,000-row read of live-written rows as pages × the cost of a page.
 */
function extrapolate(m: Measured) {
  const seriesTarget = TARGET.symbols * TARGET.seriesPerSymbol;
  const rowsPerDay = seriesTarget * 1440;
  const rows = rowsPerDay * TARGET.retentionDays;
  const ret = m.retention as {
    rowsPerSec?: number;
    seconds?: number;
    vacuumSeconds?: number;
    rowsDeleted?: number;
    firstTenthBatchMs?: number;
    lastTenthBatchMs?: number;
  };
  const live = m.reads.find((r) => r.window.startsWith('live window (size B)'));
  const pages = live?.pagesPerRead as { coldSharedRead?: number; coldSharedHit?: number } | undefined;
  const pagesPer1000 = pages?.coldSharedRead
    ? Math.round((((pages.coldSharedRead ?? 0) + (pages.coldSharedHit ?? 0)) / live!.rowsPerRead) * 1000)
    : undefined;
  const diskMs = m.machine?.randomRead8kAfterFadvise?.p50Ms;
  return {
    rowsAt35Days: rows,
    diskGbAt35Days: r2((m.disk.liveWritten.bytesPerRow * rows) / 1e9),
    liveCycleSecondsAt20000Series: r3(seriesTarget / m.live.rowsPerSec),
    backfill35DaysHours: r2(rows / m.backfill.rowsPerSec / 3600),
    coldRead1000LiveRows: pagesPer1000
      ? {
          pages: pagesPer1000,
          msAtThisDisk: diskMs ? Math.round(pagesPer1000 * diskMs) : undefined,
          msAtNetworkDisk: Math.round(pagesPer1000 * NETWORK_DISK_PAGE_MS),
          networkDiskPageMsAssumed: NETWORK_DISK_PAGE_MS,
        }
      : undefined,
    dropOneDay:
      typeof ret.rowsPerSec === 'number'
        ? {
            deleteSecondsIfLinear: Math.round(rowsPerDay / ret.rowsPerSec),
            deleteBatchMsFirstToLastTenth: [ret.firstTenthBatchMs, ret.lastTenthBatchMs],
            vacuumSecondsRange: [
              Math.round((ret.vacuumSeconds ?? 0) * (rowsPerDay / (ret.rowsDeleted ?? rowsPerDay))),
              Math.round((ret.vacuumSeconds ?? 0) * (rows / m.sizeB.rows)),
            ],
          }
        : { seconds: ret.seconds },
  };
}

/** JSON as the repository's formatter (biome) writes it: arrays of plain values on one line. */
function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\[\n\s+([^[\]{}]*?)\n\s*\]/g,
    (_, items: string) => `[${items.split(/,\n\s*/).join(', ')}]`,
  );
}

export async function run() {
  const machine = {
    cpus: cpus().length,
    memoryGb: r2(totalmem() / 1e9),
    node: process.version,
    randomRead8kAfterFadvise: diskProbe(),
  };
  console.log(
    `\nStorage layout — ${SYMBOLS} symbols (PGlite: ${PGLITE_SYMBOLS}) × ${VENUES.length} series, ${HOURS} h of 1m candles (${HOURS / 2} h backfilled, ${HOURS / 2} h live)`,
  );
  console.log(`machine: ${JSON.stringify(machine)}`);
  /** Each layout's entry is written as soon as it is measured, replacing that layout's previous entry. */
  const save = (name: string, entry: unknown) => {
    mkdirSync(dirname(RESULTS), { recursive: true });
    const previous = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
    const layouts: Record<string, Measured & { extrapolated?: unknown }> = {
      ...(previous.layouts ?? {}),
      [`${name}${TAG}`]: entry,
    };
    // Recomputed for every stored entry, so each follows the same formula (the embedded one answers a
    // smaller question: docs/adr/0020-candle-storage-layout.md).
    for (const [key, m] of Object.entries(layouts))
      if (!key.startsWith('pglite') && m.live) layouts[key] = { ...m, extrapolated: extrapolate(m) };
    const out = {
      bench: 'storage-layout',
      question: `${TARGET.symbols} symbols × 3 venues + merged, 1m candles, ${TARGET.retentionDays}-day retention`,
      layouts,
    };
    writeFileSync(RESULTS, `${toJson(out)}\n`);
    console.log(`  written: ${RESULTS} (${name}${TAG})`);
  };
  const attempt = async (name: string, body: () => Promise<unknown>) => {
    try {
      save(name, await body());
    } catch (error) {
      console.error(`  ${name} failed: ${(error as Error).stack}`);
      process.exitCode = 1;
    }
  };
  const wantPostgres = ONLY.includes('single') || ONLY.includes('partitioned');
  let admin: pg.Client | undefined;
  if (wantPostgres)
    admin = await adminClient().catch((error: Error) => {
      console.log(
        `\n— PostgreSQL not reachable at BENCH_LAYOUT_PG (${error.message}): single, partitioned skipped`,
      );
      return undefined;
    });
  if (admin) {
    await admin.query(`drop database if exists ${DB_NAME}`);
    await admin.query(`create database ${DB_NAME}`);
    const settings = await admin.query(
      `select name, setting, unit from pg_settings where name in ('shared_buffers', 'work_mem', 'maintenance_work_mem', 'max_wal_size', 'synchronous_commit', 'checkpoint_timeout', 'effective_io_concurrency')`,
    );
    const server = {
      version: (await admin.query('show server_version')).rows[0].server_version as string,
      settings: Object.fromEntries(
        settings.rows.map((r) => [r.name, `${r.setting}${r.unit ? ` ${r.unit}` : ''}`]),
      ),
    };
    await admin.end();
    try {
      for (const name of ['single', 'partitioned'] as const) {
        if (!ONLY.includes(name)) continue;
        console.log(`\n— ${name} (PostgreSQL ${server.version})`);
        await attempt(name, async () => {
          const layout = name === 'single' ? await singleLayout() : await partitionedLayout();
          try {
            const m = await measure(layout, SYMBOLS);
            return { ...m, machine, server };
          } finally {
            await layout.close();
          }
        });
      }
    } finally {
      if (!env.BENCH_LAYOUT_KEEP) {
        const admin = await adminClient();
        await admin.query(`drop database if exists ${DB_NAME}`);
        await admin.end();
      }
    }
  }
  if (ONLY.includes('clickhouse')) {
    let version: string | undefined;
    try {
      version = (await chQuery('SELECT version()')).trim();
    } catch (error) {
      // Stored entries stay as they were: a run without ClickHouse does not erase one that had it.
      console.log(`\n— clickhouse: not reachable at ${CH_URL} (${(error as Error).message}), skipped`);
    }
    if (version) {
      console.log(`\n— clickhouse ${version}`);
      await attempt('clickhouse', async () => {
        const layout = await clickhouseLayout();
        try {
          const m = await measure(layout, SYMBOLS);
          return {
            ...m,
            machine,
            server: { version, engine: 'ReplacingMergeTree', url: CH_URL },
          };
        } finally {
          if (!env.BENCH_LAYOUT_KEEP) await layout.close();
        }
      });
    }
  }
  if (ONLY.includes('pglite')) {
    console.log(`\n— pglite (embedded, ${PGLITE_SYMBOLS} symbols, own thread)`);
    await attempt('pglite', async () => {
      const layout = await pgliteLayout();
      try {
        const m = await measure(layout, PGLITE_SYMBOLS);
        return { ...m, machine };
      } finally {
        await layout.close();
      }
    });
  }
  return existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
}
