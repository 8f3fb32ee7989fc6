import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { fastHasher } from '../harness/app.ts';
import { probe, startLoad, tally } from './harness/load.ts';
import { type MeridianProcess, startMeridian } from './harness/meridian.ts';
import { freePort, sleep, waitUntil } from './harness/ports.ts';
import { type OwnPostgres, startOwnPostgres } from './harness/postgres.ts';

/**
 * One database of a shared cluster frozen: every backend of the database `frozen` is stopped (SIGSTOP) as
 * soon as it appears in pg_stat_activity, for `freezeMs`, while a `meridian serve` process on that database is
 * under load. The postmaster and the other databases keep running. The process must hold a bounded number of
 * backends (it once dropped each timed-out connection and opened another while the stopped backend lived
 * on, until the cluster refused every database with "too many clients"), the other database must stay
 * usable, and the process must recover once the backends are continued (SIGCONT).
 * The suite runs as root (or as the postgres user): it can signal the cluster's backends.
 */
const freezeMs = Number(process.env.MERIDIAN_FAULTS_FREEZE_MS ?? 20_000);
const poolSize = 10;
/** Low enough that a leak reaches it during the freeze; the superuser keeps 3 reserved slots for the test. */
const maxConnections = 60;
const figures: Record<string, unknown> = {};

let postgres: OwnPostgres;
let admin: pg.Client;
let serve: MeridianProcess;
let auth: Record<string, string>;

/** The cluster's backends of one database, from the OS (a stopped backend is still a process holding a slot). */
function backendsOf(database: string): number[] {
  const postmaster = postgres.postmasterPid();
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== postmaster) continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith(`postgres: postgres ${database} `)) pids.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return pids;
}

/** Opens a new connection to `database` and runs one query: can a client still get in? */
async function usable(database: string): Promise<{ ok: boolean; error?: string }> {
  const client = new pg.Client({
    connectionString: postgres.url(database),
    connectionTimeoutMillis: 2_000,
    query_timeout: 2_000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    await client.end().catch(() => {});
  }
}

describe('surviving one frozen database of a shared cluster', () => {
  beforeAll(async () => {
    postgres = await startOwnPostgres({ maxConnections });
    admin = new pg.Client({ connectionString: postgres.url(), statement_timeout: 2_000 });
    admin.on('error', () => {});
    await admin.connect();
    await admin.query('create database frozen');
    await admin.query('create database other');
    const accounts = await buildContainer(
      loadConfig({
        DATABASE_URL: postgres.url('frozen'),
        LOG_LEVEL: 'silent',
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
      }),
      { hasher: fastHasher },
    );
    await accounts.accounts.createUser({ email: 'first@example.com', role: 'admin' });
    const { user } = await accounts.accounts.createUser({
      email: 'load@example.com',
      role: 'member',
      plan: 'pro',
    });
    const { token } = await accounts.accounts.createToken(user.id, { name: 'faults' });
    auth = { authorization: `Bearer ${token}` };
    await accounts.close(); // only the serve process uses `frozen` from here on
    serve = await startMeridian({
      name: 'serve-frozen',
      role: 'all',
      port: await freePort(),
      env: {
        DATABASE_URL: postgres.url('frozen'),
        LOG_LEVEL: 'info',
        MERIDIAN_MARKET_HISTORY_DAYS: '1',
        MERIDIAN_AUTH_FAILURE_LIMIT: '1000000',
        MERIDIAN_RATE_LIMIT_PRO: '1000000',
      },
    });
  }, 240_000);

  afterAll(async () => {
    await serve?.kill('SIGKILL').catch(() => {});
    await admin?.end().catch(() => {});
    postgres?.destroy();
    writeFileSync(
      join(import.meta.dirname, '.last-run-partial-freeze.json'),
      `${JSON.stringify(figures, null, 2)}\n`,
    );
    process.stdout.write(`\npartial freeze figures:\n${JSON.stringify(figures, null, 2)}\n`);
  }, 60_000);

  it(`holds a bounded number of backends while one database's backends are stopped ${freezeMs / 1000} s; the other database stays usable; recovery after SIGCONT`, async () => {
    const urls = [`${serve.baseUrl}/api/onchain/flows`, `${serve.baseUrl}/api/account`];
    const load = startLoad(urls, auth, { concurrency: 8, deadlineMs: 5_000 });
    await sleep(1_000);
    const before = backendsOf('frozen').length;

    // The freeze: every backend of `frozen` found in pg_stat_activity is stopped, again and again (new ones
    // included) until the thaw. The postmaster and every other database run on.
    const stopped = new Set<number>();
    let freezing = true;
    const stopper = (async () => {
      while (freezing) {
        const { rows } = await admin
          .query<{ pid: number }>("select pid from pg_stat_activity where datname = 'frozen'")
          .catch(() => ({ rows: [] as Array<{ pid: number }> }));
        for (const { pid } of rows) {
          if (stopped.has(pid)) continue;
          try {
            process.kill(pid, 'SIGSTOP');
            stopped.add(pid);
          } catch {
            // ended meanwhile
          }
        }
        await sleep(100);
      }
    })();
    const frozenAt = Date.now();
    const held: number[] = [];
    const other: Array<{ ok: boolean; error?: string }> = [];
    while (Date.now() - frozenAt < freezeMs) {
      held.push(backendsOf('frozen').length);
      other.push(await usable('other'));
      await sleep(500);
    }
    freezing = false;
    await stopper;
    for (const pid of stopped) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // ended meanwhile
      }
    }
    const thawedAt = Date.now();
    let recoveredAt = 0;
    await waitUntil(
      'a request reading the database to succeed after the thaw',
      async () => {
        const o = await probe(`${serve.baseUrl}/api/onchain/flows`, auth, 5_000);
        if (o.status === 200) recoveredAt = o.at + o.ms;
        return recoveredAt > 0;
      },
      30_000,
    );
    await sleep(2_000);
    const outcomes = await load.stop();
    const after = backendsOf('frozen').length;

    figures.partialFreeze = {
      freezeMs,
      poolSize,
      maxConnections,
      backendsBefore: before,
      backendsHeldMax: Math.max(...held),
      backendsStopped: stopped.size,
      backendsAfterRecovery: after,
      otherDatabaseChecks: other.length,
      otherDatabaseFailures: other.filter((o) => !o.ok).map((o) => o.error),
      ...tally(outcomes.filter((o) => o.at >= frozenAt && o.at < thawedAt)),
      recoveryMs: Math.max(0, recoveredAt - thawedAt),
    };
    expect(serve.exit).toBeNull();
    // Bounded: the pool's connections and nothing more, however long the freeze.
    expect(Math.max(...held)).toBeLessThanOrEqual(poolSize);
    expect(other.filter((o) => !o.ok)).toEqual([]);
    const during = outcomes.filter((o) => o.at >= frozenAt && o.at < thawedAt);
    expect(during.filter((o) => o.hung)).toHaveLength(0);
    for (const o of during.filter((x) => x.status !== 200)) expect(o.status).toBe(503);
    expect(after).toBeLessThanOrEqual(poolSize);
  }, 180_000);
});
