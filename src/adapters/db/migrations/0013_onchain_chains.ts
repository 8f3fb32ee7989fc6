import type { Kysely } from 'kysely';

/**
 * Many chains, re-derivable flows and netflow series: each flow keeps the version of the label set that
 * classified it; each chain's checkpoint keeps its block time and the time of the first block it indexed (the
 * span the stored flows cover, so a netflow bucket outside it is marked as a gap); an index serves the
 * per-exchange time-range aggregation of the netflow series and one serves the block-range reads of `verify`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('onchain_flows').addColumn('label_version', 'text').execute();
  await db.schema.alterTable('onchain_checkpoints').addColumn('block_time', 'bigint').execute();
  await db.schema.alterTable('onchain_checkpoints').addColumn('first_block_time', 'bigint').execute();
  await db.schema
    .createIndex('onchain_flows_exchange_time_idx')
    .on('onchain_flows')
    .columns(['exchange', 'block_time'])
    .execute();
  await db.schema
    .createIndex('onchain_flows_chain_block_idx')
    .on('onchain_flows')
    .columns(['chain', 'block_number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('onchain_flows_chain_block_idx').execute();
  await db.schema.dropIndex('onchain_flows_exchange_time_idx').execute();
  await db.schema.alterTable('onchain_checkpoints').dropColumn('first_block_time').execute();
  await db.schema.alterTable('onchain_checkpoints').dropColumn('block_time').execute();
  await db.schema.alterTable('onchain_flows').dropColumn('label_version').execute();
}
