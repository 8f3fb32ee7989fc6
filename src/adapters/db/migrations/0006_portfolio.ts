import type { Kysely } from 'kysely';

/**
 * Portfolio rows and imports, idempotency keys (per account, kept 24 h) and the per-endpoint API usage
 * buckets the usage counter flushes into (10-minute buckets, summed across replicas).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('portfolio_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('inserted', 'integer', (c) => c.notNull())
    .addColumn('updated', 'integer', (c) => c.notNull())
    .addColumn('unchanged', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('portfolio_imports_account_idx')
    .on('portfolio_imports')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('portfolio_rows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('quantity', 'numeric', (c) => c.notNull())
    .addColumn('cost_basis', 'numeric')
    .addColumn('cost_currency', 'text')
    .addColumn('acquired_at', 'bigint')
    .addColumn('venue', 'text')
    .addColumn('note', 'text')
    .addColumn('external_id', 'text')
    .addColumn('import_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // NULL external ids never conflict (SQL NULLs are distinct), so rows without one are always inserted.
    .addUniqueConstraint('portfolio_rows_external_uq', ['account_id', 'external_id'])
    .execute();
  await db.schema
    .createIndex('portfolio_rows_account_idx')
    .on('portfolio_rows')
    .columns(['account_id', 'asset'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_expiry_idx')
    .on('idempotency_keys')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('api_usage_buckets')
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addColumn('rate_limited', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_usage_buckets_pk', ['account_id', 'bucket', 'endpoint'])
    .execute();
  await db.schema
    .createIndex('api_usage_buckets_bucket_idx')
    .on('api_usage_buckets')
    .column('bucket')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_usage_buckets').execute();
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.dropTable('portfolio_rows').execute();
  await db.schema.dropTable('portfolio_imports').execute();
}
