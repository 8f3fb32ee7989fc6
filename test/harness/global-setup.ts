import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/adapters/db/connect.ts';
import { migrateToLatest } from '../../src/adapters/db/migrate.ts';
import { copyPgliteTemplate } from '../../src/adapters/db/pglite-create.ts';
import { ensureServerBuild } from '../../scripts/ensure-build.mjs';

/** What the setup provides to tests (`inject`). */
interface Provided {
  pgliteSnapshot: string;
  postgresTemplate: string | null;
  postgresAdminUrl: string | null;
  redisUrl: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext extends Provided {}
}

/** The migrated, empty cluster the build makes (src/adapters/db/pglite-template.ts). */
const distTemplate = fileURLToPath(new URL('../../dist/pglite-template', import.meta.url));

const postgresAdminUrl =
  process.env.MERIDIAN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.MERIDIAN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** In CI the PostgreSQL and Redis suites are mandatory: an unreachable service fails the run, never skips. */
const required = process.env.MERIDIAN_REQUIRE_SERVICES === '1';

/**
 * Every project that lists this file (service, slow, integration, e2e, browser) calls it, in one process: the first call
 * prepares, the others reuse what it prepared, and the last teardown cleans up. Kept on globalThis because
 * each project loads this module afresh.
 */
const shared = globalThis as { meridianTestSetup?: { users: number; ready: Promise<Provided> } };

/** Runs once per `vitest run`, for every project that lists it (see above). */
export default async function setup(project: TestProject) {
  shared.meridianTestSetup ??= { users: 0, ready: prepare() };
  const state = shared.meridianTestSetup;
  state.users += 1;
  const provided = await state.ready;
  project.provide('pgliteSnapshot', provided.pgliteSnapshot);
  project.provide('postgresTemplate', provided.postgresTemplate);
  project.provide('postgresAdminUrl', provided.postgresAdminUrl);
  project.provide('redisUrl', provided.redisUrl);
  return async () => {
    state.users -= 1;
    if (state.users > 0) return;
    shared.meridianTestSetup = undefined;
    await cleanUp(provided);
  };
}

/**
 * Migrates a PGlite database once and dumps it (each test file loads a copy, ~10× cheaper than migrating
 * again), and builds a PostgreSQL template database that tests clone.
 */
async function prepare(): Promise<Provided> {
  // Tests that spawn `bin/meridian.mjs` run dist/: built once here, never by parallel test files at once.
  if ((await ensureServerBuild({ quiet: true })) !== 0)
    throw new Error('the server build (esbuild, scripts/ensure-build.mjs) failed');
  // Opened on a copy of the build's migrated template (no initdb, no migrations to run); it is then dumped.
  const folder = mkdtempSync(join(tmpdir(), 'meridian-template-copy-'));
  copyPgliteTemplate(folder, distTemplate);
  const pglite = await openDatabase({ dataDir: folder });
  await migrateToLatest(pglite.db);
  const client = await pglite.dump!();
  const snapshotPath = join(tmpdir(), `meridian-pglite-${process.pid}-${randomBytes(4).toString('hex')}.tar`);
  // Kept uncompressed: each load then skips the gunzip, a third of its CPU (42 instead of 5 MB on disk).
  writeFileSync(snapshotPath, gunzipSync(Buffer.from(await client.arrayBuffer())));
  await pglite.close();
  rmSync(folder, { recursive: true, force: true });

  let template: string | null = null;
  try {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
    await admin.connect();
    template = `meridian_template_${process.pid}`;
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    await admin.end();
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${template}`;
    const db = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    await migrateToLatest(db.db);
    await db.close();
  } catch (error) {
    if (required)
      throw new Error(
        `PostgreSQL is required (MERIDIAN_REQUIRE_SERVICES=1) but unusable: ${(error as Error).message}`,
      );
    template = null;
  }

  let redis: string | null = null;
  try {
    const { Redis } = await import('ioredis');
    const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
    await client.connect();
    await client.ping();
    client.disconnect();
    redis = redisUrl;
  } catch (error) {
    if (required)
      throw new Error(
        `Redis is required (MERIDIAN_REQUIRE_SERVICES=1) but unreachable: ${(error as Error).message}`,
      );
  }
  return {
    pgliteSnapshot: snapshotPath,
    postgresTemplate: template,
    postgresAdminUrl: template ? postgresAdminUrl : null,
    redisUrl: redis,
  };
}

/** Drops the PostgreSQL template and any test database cloned from it that is left over. */
async function cleanUp({ postgresTemplate: template }: Provided): Promise<void> {
  if (!template) return;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  const leftovers = await admin.query(`select datname from pg_database where datname like '${template}_t_%'`);
  for (const row of leftovers.rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
  await admin.query(`drop database if exists ${template} with (force)`);
  await admin.end();
}
