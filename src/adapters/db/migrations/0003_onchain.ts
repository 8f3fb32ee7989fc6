import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('onchain_flows')
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('exchange', 'text', (c) => c.notNull())
    .addColumn('tx_index', 'integer', (c) => c.notNull())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('block_time', 'bigint', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('token_address', 'text')
    .addColumn('amount', 'numeric', (c) => c.notNull())
    .addColumn('amount_raw', 'numeric', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('usd_value', 'double precision')
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('from_exchange', 'text')
    .addColumn('from_tag', 'text')
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('to_exchange', 'text')
    .addColumn('to_tag', 'text')
    .addColumn('indexed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('onchain_flows_pk', ['chain', 'tx_hash', 'log_index', 'exchange'])
    .execute();
  // Newest-first keyset pagination, overall and per exchange.
  await db.schema
    .createIndex('onchain_flows_order_idx')
    .on('onchain_flows')
    .columns(['block_number desc', 'tx_index desc', 'log_index desc', 'exchange desc'])
    .execute();
  await db.schema
    .createIndex('onchain_flows_exchange_idx')
    .on('onchain_flows')
    .columns(['exchange', 'block_number desc', 'tx_index desc', 'log_index desc'])
    .execute();
  await db.schema.createIndex('onchain_flows_time_idx').on('onchain_flows').columns(['block_time']).execute();

  await db.schema
    .createTable('onchain_blocks')
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('parent_hash', 'text', (c) => c.notNull())
    .addColumn('block_time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('onchain_blocks_pk', ['chain', 'number'])
    .execute();

  await db.schema
    .createTable('onchain_checkpoints')
    .addColumn('chain', 'text', (c) => c.primaryKey())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('onchain_checkpoints').execute();
  await db.schema.dropTable('onchain_blocks').execute();
  await db.schema.dropTable('onchain_flows').execute();
}
