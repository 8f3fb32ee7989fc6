import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { type DbHandle, type DbTimeouts, openDatabase } from '../../src/adapters/db/connect.ts';

export type DbKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL whenever the global setup found it (mandatory in CI). */
export function dbKinds(): DbKind[] {
  return inject('postgresTemplate') ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * Where a repository contract suite runs: the module's in-memory twin, then every database backend — PGlite
 * on the caller's thread and on a thread of its own (what `npm start` uses), and PostgreSQL.
 */
export type RepositoryKind = 'memory' | DatabaseKind;
export const repositoryKinds = (): RepositoryKind[] => ['memory', ...databaseKinds()];

/** Every database backend a Kysely repository runs on: PGlite on its own thread (what `npm start` uses), then `dbKinds()`. */
export type DatabaseKind = DbKind | 'pglite-thread';
export const databaseKinds = (): DatabaseKind[] => ['pglite-thread', ...dbKinds()];

export const postgresAvailable = () => inject('postgresTemplate') !== null;
export const redisUrl = () => inject('redisUrl');

let snapshot: Blob | undefined;

/**
 * The migrated PGlite data folder the global setup dumped, read once per test process. Loading it
 * (`loadDataDir`) costs about a fifth of the CPU of a fresh PGlite, which runs initdb: any test that needs an
 * embedded database, empty or not, starts from it.
 */
export function pgliteSnapshot(): Blob {
  snapshot ??= new Blob([readFileSync(inject('pgliteSnapshot'))]);
  return snapshot;
}

/**
 * A clean, migrated database for one test: PGlite loaded from the migrated snapshot, or a PostgreSQL
 * database cloned from the template (CREATE DATABASE … TEMPLATE) and dropped on close.
 */
export async function openTestDatabase(
  kind: DatabaseKind,
  timeouts?: Partial<DbTimeouts>,
): Promise<DbHandle> {
  if (kind !== 'postgres') {
    return openDatabase({ loadDataDir: pgliteSnapshot(), thread: kind === 'pglite-thread' });
  }
  return openTestPostgres(timeouts);
}

/** A clean PostgreSQL database cloned from the template, with its URL (for child processes); dropped on close. */
export async function openTestPostgres(timeouts?: Partial<DbTimeouts>): Promise<DbHandle & { url: string }> {
  const template = inject('postgresTemplate');
  const adminUrl = inject('postgresAdminUrl');
  if (!template || !adminUrl) throw new Error('PostgreSQL is not available for this run');
  const name = `${template}_t_${randomBytes(5).toString('hex')}`;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 5, timeouts });
  return {
    ...handle,
    url: url.toString(),
    close: async () => {
      await handle.close();
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/**
 * Stores an account as sign-up does, below the service: the user, its personal organization (same id) and
 * the owner's membership — what owned rows (usage, portfolio, idempotency keys) reference.
 */
export async function insertAccount(db: DbHandle['db'], id: string, createdAt: number): Promise<void> {
  await sql`insert into users (id, email, role, created_at) values (${id}, ${`${id}@example.com`}, 'member', ${createdAt})`.execute(
    db,
  );
  await sql`insert into organizations (id, name, personal, created_at) values (${id}, ${id}, true, ${createdAt})`.execute(
    db,
  );
  await sql`insert into memberships (org_id, user_id, role, created_at) values (${id}, ${id}, 'owner', ${createdAt})`.execute(
    db,
  );
}
