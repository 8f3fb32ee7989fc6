import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/adapters/db/connect.ts';
import { migrateToLatest } from '../../src/adapters/db/migrate.ts';
import { ensureServerBuild } from '../../scripts/ensure-build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string | null;
    postgresAdminUrl: string | null;
    redisUrl: string | null;
  }
}

const postgresAdminUrl =
  process.env.MERIDIAN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.MERIDIAN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** In CI the PostgreSQL and Redis suites are mandatory: an unreachable service fails the run, never skips. */
const required = process.env.MERIDIAN_REQUIRE_SERVICES === '1';

/**
 * Runs once per `vitest run`: migrates a PGlite database once and dumps it (each test file loads a copy,
 * ~10× cheaper than migrating again), and builds a PostgreSQL template database that tests clone.
 */
export default async function setup(project: TestProject) {
  // Tests that spawn `bin/meridian.mjs` run dist/: compiled once here, never by parallel test files at once.
  if (ensureServerBuild({ quiet: true }) !== 0)
    throw new Error('the server build (tsc -p tsconfig.build.json) failed');
  const pglite = await openDatabase({});
  await migrateToLatest(pglite.db);
  const client = await pglite.dump!();
  const snapshotPath = join(
    tmpdir(),
    `meridian-pglite-${process.pid}-${randomBytes(4).toString('hex')}.tar.gz`,
  );
  writeFileSync(snapshotPath, Buffer.from(await client.arrayBuffer()));
  await pglite.close();
  project.provide('pgliteSnapshot', snapshotPath);

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
  project.provide('postgresTemplate', template);
  project.provide('postgresAdminUrl', template ? postgresAdminUrl : null);

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
  project.provide('redisUrl', redis);

  return async () => {
    if (template) {
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: postgresAdminUrl });
      await admin.connect();
      const leftovers = await admin.query(
        `select datname from pg_database where datname like '${template}_t_%'`,
      );
      for (const row of leftovers.rows)
        await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    }
  };
}
