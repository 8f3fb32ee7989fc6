import type { Kysely } from 'kysely';

/** Private labels: an account's own names for addresses (modules/labels), one per (account, chain, address). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('private_labels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('private_labels_account_address_key', ['account_id', 'chain', 'address'])
    .execute();
  await db.schema
    .createIndex('private_labels_account_created_idx')
    .on('private_labels')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('private_labels').execute();
}
