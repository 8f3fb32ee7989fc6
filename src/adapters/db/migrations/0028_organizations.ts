import { type Kysely, sql } from 'kysely';

/** The tables whose `account_id` names an owner through a foreign key: repointed from users to organizations. */
const ownedByAccount = [
  'portfolio_imports',
  'portfolio_rows',
  'idempotency_keys',
  'api_usage_buckets',
  'api_usage_days',
] as const;

/**
 * Organizations own what accounts owned. Every user gets a personal organization whose id is the user's id,
 * so every `account_id` already names its organization and no owned row is rewritten (docs/adr/0037).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('standard'))
    .addColumn('rate_limit_override', 'integer')
    .addColumn('require_2fa', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('personal', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('memberships')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user_idx').on('memberships').column('user_id').execute();
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('accepted_by', 'text')
    .execute();
  await db.schema.createIndex('invitations_org_idx').on('invitations').column('org_id').execute();

  // Every existing account: its personal organization (same id, plan and override), owned by it.
  await sql`insert into organizations (id, name, plan, rate_limit_override, require_2fa, personal, created_at)
    select id, email, plan, rate_limit_override, false, true, created_at from users`.execute(db);
  await sql`insert into memberships (org_id, user_id, role, created_at)
    select id, id, 'owner', created_at from users`.execute(db);

  await db.schema.alterTable('api_tokens').addColumn('org_id', 'text').execute();
  await sql`update api_tokens set org_id = user_id`.execute(db);
  await sql`alter table api_tokens alter column org_id set not null`.execute(db);
  await sql`alter table api_tokens add constraint api_tokens_org_id_fkey
    foreign key (org_id) references organizations (id) on delete cascade`.execute(db);
  await db.schema
    .createIndex('api_tokens_org_user_idx')
    .on('api_tokens')
    .columns(['org_id', 'user_id'])
    .execute();

  for (const table of ownedByAccount) {
    await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.id(`${table}_account_id_fkey`)}`.execute(
      db,
    );
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_account_id_fkey`)}
      foreign key (account_id) references organizations (id) on delete cascade`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ownedByAccount) {
    await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.id(`${table}_account_id_fkey`)}`.execute(
      db,
    );
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_account_id_fkey`)}
      foreign key (account_id) references users (id) on delete cascade`.execute(db);
  }
  await db.schema.dropIndex('api_tokens_org_user_idx').execute();
  await db.schema.alterTable('api_tokens').dropColumn('org_id').execute();
  await db.schema.dropTable('invitations').execute();
  await db.schema.dropTable('memberships').execute();
  await db.schema.dropTable('organizations').execute();
}
