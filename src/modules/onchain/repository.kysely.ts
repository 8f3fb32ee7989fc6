import { type Kysely, sql } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import { type Flow, flowId } from './classify.ts';
import { formatUnits } from 'viem/utils';
import type { FlowQuery, OnchainRepository } from './repository.ts';

/** A NUMERIC sum as PostgreSQL renders it, without trailing zeros ("12.500000" → "12.5"; null → "0"). */
function plainDecimal(value: unknown): string {
  const text = value === null || value === undefined ? '0' : String(value);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
import type { OnchainFlowsTable, OnchainTables } from './tables.ts';

const CHUNK = 500;

function toRow(flow: Flow, atMs: number): OnchainFlowsTable {
  return {
    chain: flow.chain,
    tx_hash: flow.txHash,
    log_index: flow.logIndex,
    exchange: flow.exchange,
    tx_index: flow.txIndex,
    block_number: flow.blockNumber,
    block_hash: flow.blockHash,
    block_time: flow.timeMs,
    direction: flow.direction,
    asset: flow.asset,
    token_address: flow.tokenAddress,
    amount: flow.amount,
    amount_raw: flow.amountRaw,
    decimals: flow.decimals,
    usd_value: flow.usdValue,
    from_address: flow.from.address,
    from_exchange: flow.from.exchange,
    from_tag: flow.from.tag,
    to_address: flow.to.address,
    to_exchange: flow.to.exchange,
    to_tag: flow.to.tag,
    indexed_at: atMs,
    label_version: flow.labelVersion,
  };
}

function fromRow(row: OnchainFlowsTable): Flow {
  return {
    chain: row.chain,
    txHash: row.tx_hash,
    txIndex: Number(row.tx_index),
    logIndex: Number(row.log_index),
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    timeMs: Number(row.block_time),
    exchange: row.exchange,
    direction: row.direction,
    asset: row.asset,
    tokenAddress: row.token_address,
    // Re-derived from the raw integer so the rendering never depends on the database's NUMERIC scale.
    amount: formatUnits(BigInt(String(row.amount_raw)), Number(row.decimals)),
    amountRaw: String(row.amount_raw),
    decimals: Number(row.decimals),
    usdValue: row.usd_value === null ? null : Number(row.usd_value),
    from: { address: row.from_address, exchange: row.from_exchange, tag: row.from_tag },
    to: { address: row.to_address, exchange: row.to_exchange, tag: row.to_tag },
    labelVersion: row.label_version ?? null,
  };
}

const key = (f: { chain: string; tx_hash: string; log_index: number; exchange: string }) =>
  `${f.chain}|${f.tx_hash}|${Number(f.log_index)}|${f.exchange}`;

export function createKyselyOnchainRepository(db: Kysely<OnchainTables>): OnchainRepository {
  return {
    async checkpoint(chain) {
      const row = await db
        .selectFrom('onchain_checkpoints')
        .select(['block_number', 'block_hash'])
        .where('chain', '=', chain)
        .executeTakeFirst();
      return row ? { blockNumber: Number(row.block_number), blockHash: row.block_hash } : undefined;
    },

    async indexedThrough(chain) {
      const row = await db
        .selectFrom('onchain_checkpoints as c')
        .innerJoin('onchain_blocks as b', (join) =>
          join.onRef('b.chain', '=', 'c.chain').onRef('b.number', '=', 'c.block_number'),
        )
        .select(['c.block_number', 'b.block_time'])
        .where('c.chain', '=', chain)
        .executeTakeFirst();
      return row ? { blockNumber: Number(row.block_number), blockTime: Number(row.block_time) } : undefined;
    },

    async blockHash(chain, number) {
      const row = await db
        .selectFrom('onchain_blocks')
        .select('hash')
        .where('chain', '=', chain)
        .where('number', '=', number)
        .executeTakeFirst();
      return row?.hash;
    },

    async lowestBlock(chain) {
      const row = await db
        .selectFrom('onchain_blocks')
        .select((eb) => eb.fn.min('number').as('low'))
        .where('chain', '=', chain)
        .executeTakeFirst();
      return row?.low === null || row?.low === undefined ? undefined : Number(row.low);
    },

    async commit(chain, blocks, flows, atMs, term) {
      const last = blocks.at(-1);
      if (!last) return [];
      return db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        for (let i = 0; i < blocks.length; i += CHUNK) {
          await trx
            .insertInto('onchain_blocks')
            .values(
              blocks.slice(i, i + CHUNK).map((b) => ({
                chain,
                number: b.number,
                hash: b.hash,
                parent_hash: b.parentHash,
                block_time: b.timestampMs,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['chain', 'number']).doUpdateSet((eb) => ({
                hash: eb.ref('excluded.hash'),
                parent_hash: eb.ref('excluded.parent_hash'),
                block_time: eb.ref('excluded.block_time'),
              })),
            )
            .execute();
        }
        const inserted = new Set<string>();
        for (let i = 0; i < flows.length; i += CHUNK) {
          const rows = await trx
            .insertInto('onchain_flows')
            .values(flows.slice(i, i + CHUNK).map((f) => toRow(f, atMs)))
            .onConflict((oc) => oc.columns(['chain', 'tx_hash', 'log_index', 'exchange']).doNothing())
            .returning(['chain', 'tx_hash', 'log_index', 'exchange'])
            .execute();
          for (const row of rows) inserted.add(key(row));
        }
        await trx
          .insertInto('onchain_checkpoints')
          .values({
            chain,
            block_number: last.number,
            block_hash: last.hash,
            updated_at: atMs,
            block_time: last.timestampMs,
            first_block_time: (blocks[0] as (typeof blocks)[number]).timestampMs,
          })
          .onConflict((oc) =>
            oc.column('chain').doUpdateSet({
              block_number: last.number,
              block_hash: last.hash,
              updated_at: atMs,
              block_time: last.timestampMs,
              // The first block ever stored stays the start of what the flows cover.
              first_block_time: sql<number>`coalesce(onchain_checkpoints.first_block_time, excluded.first_block_time)`,
            }),
          )
          .execute();
        // `delete` is true once per key: a flow given twice in one commit is reported new once, as it is stored.
        return flows.filter((f) =>
          inserted.delete(
            key({ chain: f.chain, tx_hash: f.txHash, log_index: f.logIndex, exchange: f.exchange }),
          ),
        );
      });
    },

    async rewind(chain, ancestor, atMs, term) {
      return db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        const removed = await trx
          .deleteFrom('onchain_flows')
          .where('chain', '=', chain)
          .where('block_number', '>', ancestor)
          .returning(['chain', 'tx_hash', 'log_index', 'exchange'])
          .execute();
        await trx
          .deleteFrom('onchain_blocks')
          .where('chain', '=', chain)
          .where('number', '>', ancestor)
          .execute();
        const kept = await trx
          .selectFrom('onchain_blocks')
          .select(['hash', 'block_time'])
          .where('chain', '=', chain)
          .where('number', '=', ancestor)
          .executeTakeFirst();
        const through = kept ? Number(kept.block_time) : null;
        await trx
          .insertInto('onchain_checkpoints')
          .values({
            chain,
            block_number: ancestor,
            block_hash: kept?.hash ?? '',
            updated_at: atMs,
            block_time: through,
            first_block_time: null,
          })
          .onConflict((oc) =>
            oc.column('chain').doUpdateSet({
              block_number: ancestor,
              block_hash: kept?.hash ?? '',
              updated_at: atMs,
              block_time: through,
            }),
          )
          .execute();
        const removedIds = removed.map((r) =>
          flowId({ chain: r.chain, txHash: r.tx_hash, logIndex: r.log_index, exchange: r.exchange }),
        );
        return { removedFlows: removedIds.length, removedIds };
      });
    },

    async pruneBlocks(chain, belowNumber, term) {
      await db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        await trx
          .deleteFrom('onchain_blocks')
          .where('chain', '=', chain)
          .where('number', '<', belowNumber)
          .execute();
      });
    },

    async list(query: FlowQuery) {
      let q = db.selectFrom('onchain_flows').selectAll();
      if (query.exchange) q = q.where('exchange', '=', query.exchange);
      if (query.chain) q = q.where('chain', '=', query.chain);
      if (query.asset) q = q.where('asset', '=', query.asset);
      if (query.direction) q = q.where('direction', '=', query.direction);
      if (query.minUsd !== undefined) q = q.where('usd_value', '>=', query.minUsd);
      const b = query.before;
      if (b) {
        q = q.where(
          sql<boolean>`(block_number, tx_index, log_index, exchange) < (${b.blockNumber}, ${b.txIndex}, ${b.logIndex}, ${b.exchange})`,
        );
      }
      const rows = await q
        .orderBy('block_number', 'desc')
        .orderBy('tx_index', 'desc')
        .orderBy('log_index', 'desc')
        .orderBy('exchange', 'desc')
        .limit(query.limit)
        .execute();
      return rows.map(fromRow);
    },

    async totals(query) {
      let q = db
        .selectFrom('onchain_flows')
        .select([
          sql<string | number | null>`sum(case when direction = 'deposit' then usd_value else 0 end)`.as(
            'inflow',
          ),
          sql<string | number | null>`sum(case when direction = 'withdrawal' then usd_value else 0 end)`.as(
            'outflow',
          ),
        ])
        .where('block_time', '>=', query.sinceMs);
      if (query.exchange) q = q.where('exchange', '=', query.exchange);
      if (query.asset) q = q.where('asset', '=', query.asset);
      if (query.chain) q = q.where('chain', '=', query.chain);
      const row = await q.executeTakeFirst();
      return { inflowUsd: cents(row?.inflow), outflowUsd: cents(row?.outflow) };
    },

    async flowsInBlocks(chain, fromBlock, toBlock) {
      const rows = await db
        .selectFrom('onchain_flows')
        .selectAll()
        .where('chain', '=', chain)
        .where('block_number', '>=', fromBlock)
        .where('block_number', '<=', toBlock)
        .orderBy('block_number')
        .orderBy('tx_index')
        .orderBy('log_index')
        .orderBy('exchange')
        .execute();
      return rows.map(fromRow);
    },

    async netflow(query) {
      // From the hourly rollup (see migration 0027), never the flows themselves: cost follows the buckets asked.
      const i = query.intervalMs;
      let q = db
        .selectFrom('onchain_netflow_hourly')
        .select([
          sql<string>`(hour / ${i}) * ${i}`.as('bucket'),
          sql<string>`sum(inflow)`.as('inflow'),
          sql<string>`sum(outflow)`.as('outflow'),
          sql<string>`sum(inflow_usd)`.as('inflow_usd'),
          sql<string>`sum(outflow_usd)`.as('outflow_usd'),
          sql<string>`sum(flows)`.as('flows'),
          sql<string>`sum(unpriced)`.as('unpriced'),
        ])
        .where('hour', '>=', query.fromMs)
        .where('hour', '<', query.toMs);
      if (query.exchange) q = q.where('exchange', '=', query.exchange);
      if (query.asset) q = q.where('asset', '=', query.asset);
      if (query.chain) q = q.where('chain', '=', query.chain);
      const rows = await q.groupBy(sql`1`).orderBy(sql`1`).execute();
      return rows.map((r) => ({
        startMs: Number(r.bucket),
        inflow: plainDecimal(r.inflow),
        outflow: plainDecimal(r.outflow),
        inflowUsd: cents(r.inflow_usd),
        outflowUsd: cents(r.outflow_usd),
        flows: Number(r.flows),
        unpriced: Number(r.unpriced),
      }));
    },

    async coverage() {
      const rows = await db
        .selectFrom('onchain_checkpoints')
        .select(['chain', 'first_block_time', 'block_time'])
        .orderBy('chain')
        .execute();
      return rows.map((r) => ({
        chain: r.chain,
        firstBlockTime: r.first_block_time === null ? null : Number(r.first_block_time),
        throughBlockTime: r.block_time === null ? null : Number(r.block_time),
      }));
    },
  };
}

const cents = (v: unknown) => Math.round(Number(v ?? 0) * 100) / 100;
