import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type DbHandle, openDatabase } from '../../src/adapters/db/connect.ts';
import { migrations } from '../../src/adapters/db/migrations/index.ts';

const T0 = Date.UTC(2026, 0, 1);
const before = '0027_netflow_rollup';

/** A fresh, empty database of each kind available (PGlite always; PostgreSQL when the run has one). */
async function emptyDatabases(): Promise<Array<{ kind: string; db: DbHandle; drop(): Promise<void> }>> {
  const out = [{ kind: 'pglite', db: await openDatabase({}), drop: async () => {} }];
  const adminUrl = inject('postgresAdminUrl');
  if (adminUrl) {
    const name = `meridian_orgs_migration_${randomBytes(4).toString('hex')}`;
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    out.push({
      kind: 'postgres',
      db,
      drop: async () => {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    });
  }
  return out;
}

// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema
const migrator = (db: Kysely<any>) =>
  new Migrator({ db, provider: { getMigrations: async () => migrations as Record<string, Migration> } });

/**
 * Migration 0028 on a database holding single-user data from before it: each user gets a personal
 * organization with their id, plan and override, owned by them; their tokens act in it; owned rows keep their
 * `account_id` and now reference the organization. Nothing is rewritten or lost.
 */
describe('migration 0028 (organizations) keeps single-user data', () => {
  const opened: Array<{ db: DbHandle; drop(): Promise<void> }> = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.db.close();
      await o.drop();
    }
  });

  it('moves every account into its personal organization, on PGlite and PostgreSQL', async () => {
    for (const { kind, db, drop } of await emptyDatabases()) {
      opened.push({ db, drop });
      const k = db.db as Kysely<unknown>;
      const to = await migrator(k).migrateTo(before);
      expect(to.error, kind).toBeUndefined();
      await sql`insert into users (id, email, password_hash, role, plan, rate_limit_override, created_at) values
        ('usr_a', 'a@example.com', null, 'member', 'pro', 900, ${T0}),
        ('usr_b', 'b@example.com', null, 'viewer', 'standard', null, ${T0 + 1})`.execute(k);
      await sql`insert into api_tokens (id, user_id, name, token_hash, start, created_at)
        values ('tok_a', 'usr_a', 'ci', 'hash-a', 'mr_a', ${T0})`.execute(k);
      await sql`insert into portfolio_imports (id, account_id, format, row_count, inserted, updated, unchanged, created_at)
        values ('imp_a', 'usr_a', 'json', 1, 1, 0, 0, ${T0})`.execute(k);

      const latest = await migrator(k).migrateToLatest();
      expect(latest.error, kind).toBeUndefined();
      expect(latest.results?.map((r) => r.migrationName)).toContain('0028_organizations');

      const orgs = await sql<{
        id: string;
        plan: string;
        rate_limit_override: number | null;
        personal: boolean;
      }>`select id, plan, rate_limit_override, personal from organizations order by id`.execute(k);
      expect(orgs.rows.map((o) => ({ ...o, rate_limit_override: o.rate_limit_override }))).toEqual([
        { id: 'usr_a', plan: 'pro', rate_limit_override: 900, personal: true },
        { id: 'usr_b', plan: 'standard', rate_limit_override: null, personal: true },
      ]);
      const members = await sql`select org_id, user_id, role from memberships order by org_id`.execute(k);
      expect(members.rows).toEqual([
        { org_id: 'usr_a', user_id: 'usr_a', role: 'owner' },
        { org_id: 'usr_b', user_id: 'usr_b', role: 'owner' },
      ]);
      const tokens = await sql`select id, org_id from api_tokens`.execute(k);
      expect(tokens.rows).toEqual([{ id: 'tok_a', org_id: 'usr_a' }]);
      const imports = await sql`select id, account_id from portfolio_imports`.execute(k);
      expect(imports.rows).toEqual([{ id: 'imp_a', account_id: 'usr_a' }]);

      // Owned rows now reference organizations: one that names no organization is refused.
      await sql`insert into organizations (id, name, plan, personal, created_at)
        values ('org_x', 'Team', 'standard', false, ${T0})`.execute(k);
      await sql`insert into portfolio_imports (id, account_id, format, row_count, inserted, updated, unchanged, created_at)
        values ('imp_x', 'org_x', 'json', 0, 0, 0, 0, ${T0})`.execute(k);
      await expect(
        sql`insert into portfolio_imports (id, account_id, format, row_count, inserted, updated, unchanged, created_at)
          values ('imp_y', 'org_missing', 'json', 0, 0, 0, 0, ${T0})`.execute(k),
      ).rejects.toThrow(/foreign key/);

      // Down and up again: the step is reversible on a database with only personal data.
      await sql`delete from portfolio_imports where id = 'imp_x'`.execute(k);
      await sql`delete from organizations where id = 'org_x'`.execute(k);
      const down = await migrator(k).migrateTo(before);
      expect(down.error, kind).toBeUndefined();
      const again = await migrator(k).migrateToLatest();
      expect(again.error, kind).toBeUndefined();
      const back = await sql`select count(*)::int as n from memberships`.execute(k);
      expect(back.rows, kind).toEqual([{ n: 2 }]);
    }
  });
});
