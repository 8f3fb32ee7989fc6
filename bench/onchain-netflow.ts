import { sql } from 'kysely';
import { openDatabase, tablesOf } from '../src/adapters/db/connect.ts';
import { migrateToLatest } from '../src/adapters/db/migrate.ts';
import {
  createAddressBook,
  createKyselyOnchainRepository,
  createOnchainService,
  type OnchainTables,
} from '../src/modules/onchain/index.ts';

/**
 * Netflow query on 1 M stored flows (PGlite in memory): 30 days of hourly buckets for one exchange and asset.
 * Flows are spread evenly over 30 days, 4 exchanges, 3 assets and 2 chains (so one exchange and asset is
 * ~83 k rows); target p99 ≤ 20 ms.
 */
const FLOWS = Number(process.env.BENCH_NETFLOW_FLOWS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_NETFLOW_QUERIES ?? 100);
const DAY = 86_400_000;

export async function runNetflow() {
  const db = await openDatabase({});
  await migrateToLatest(db.db);
  const t0 = Date.UTC(2026, 0, 1);
  const span = 30 * DAY;
  const built = performance.now();
  await sql`insert into onchain_flows (chain, tx_hash, log_index, exchange, tx_index, block_number, block_hash,
      block_time, direction, asset, token_address, amount, amount_raw, decimals, usd_value, from_address,
      to_address, indexed_at, label_version)
    select case when i % 2 = 0 then 'ethereum' else 'arbitrum' end, '0x' || md5(i::text), 0,
      (array['binance','coinbase','kraken','okx'])[1 + (i / 2) % 4], 0, i, '0xb',
      ${t0}::bigint + (i::bigint * ${span}::bigint) / ${FLOWS}::bigint,
      case when i % 7 < 3 then 'withdrawal' when i % 7 < 6 then 'deposit' else 'internal' end,
      (array['USDT','USDC','ETH'])[1 + (i / 8) % 3], null, (i % 1000)::numeric / 100, (i % 1000) * 10000, 6,
      (i % 1000)::double precision / 100, '0x1', '0x2', 0, 'bench'
    from generate_series(1, ${FLOWS}) as i`.execute(db.db);
  await sql`analyze onchain_flows`.execute(db.db);
  await sql`insert into onchain_checkpoints (chain, block_number, block_hash, updated_at, block_time, first_block_time)
    values ('ethereum', ${FLOWS}, '0xb', 0, ${t0 + span}, ${t0}), ('arbitrum', ${FLOWS}, '0xb', 0, ${t0 + span}, ${t0})`.execute(
    db.db,
  );
  const buildSec = (performance.now() - built) / 1000;
  const service = createOnchainService({
    repo: createKyselyOnchainRepository(tablesOf<OnchainTables>(db.db)),
    book: createAddressBook([]),
    clock: { now: () => t0 + span },
    chains: [
      { name: 'ethereum', source: 'simulated', staleMs: DAY },
      { name: 'arbitrum', source: 'simulated', staleMs: DAY },
    ],
  });
  const input = {
    exchange: 'binance',
    asset: 'USDT',
    interval: '1h',
    from: String(t0),
    to: String(t0 + span),
  };
  for (let i = 0; i < 5; i++) await service.netflow(input);
  const times: number[] = [];
  let buckets = 0;
  for (let i = 0; i < QUERIES; i++) {
    const s = performance.now();
    buckets = (await service.netflow(input)).data.length;
    times.push(performance.now() - s);
  }
  await db.close();
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] as number;
  const result = {
    flows: FLOWS,
    buckets,
    queries: QUERIES,
    buildSeconds: Number(buildSec.toFixed(1)),
    latencyMs: {
      p50: Number(q(0.5).toFixed(1)),
      p99: Number(q(0.99).toFixed(1)),
      max: Number(q(1).toFixed(1)),
    },
    targetP99Ms: 20,
  };
  console.log('Netflow, 30 days hourly, one exchange and asset, PGlite in memory');
  console.table({ [`${FLOWS} flows`]: result.latencyMs });
  return result;
}
