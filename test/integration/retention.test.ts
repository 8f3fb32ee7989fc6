import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { pruneOldData } from '../../src/app/retention.ts';
import { loadConfig } from '../../src/config/env.ts';
import { dbKinds, openTestDatabase } from '../harness/db.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

describe.each(dbKinds())('retention on %s', (kind) => {
  it('deletes only what is older than each period, in batches, and keeps coarser candles', async () => {
    const handle = await openTestDatabase(kind);
    const db = tablesOf<unknown>(handle.db);
    try {
      const old1m = NOW - 40 * DAY;
      // 6,000 old 1m candles (more than one batch), 10 recent ones, and old hourly candles that stay.
      await sql`insert into market_candles (symbol, venue, interval, open_time, open, high, low, close, volume, quote_volume)
        select 'BTCUSDT', 'merged', '1m', ${old1m}::bigint + g * 60000::bigint, 1, 1, 1, 1, 1, 1 from generate_series(1, 6000) g`.execute(
        db,
      );
      await sql`insert into market_candles (symbol, venue, interval, open_time, open, high, low, close, volume, quote_volume)
        select 'BTCUSDT', 'binance', '1m', ${NOW - DAY}::bigint + g * 60000::bigint, 1, 1, 1, 1, 1, 1 from generate_series(1, 10) g`.execute(
        db,
      );
      await sql`insert into market_candles (symbol, venue, interval, open_time, open, high, low, close, volume, quote_volume)
        select 'BTCUSDT', 'merged', '1h', ${old1m}::bigint + g * 3600000::bigint, 1, 1, 1, 1, 1, 1 from generate_series(1, 24) g`.execute(
        db,
      );
      for (const [at, symbol] of [
        [NOW - 100 * DAY, 'BTCUSDT'],
        [NOW - 10 * DAY, 'ETHUSDT'],
      ] as const) {
        await sql`insert into predictions (symbol, horizon, generated_at, baseline, prediction, expected_move_pct, confidence,
          factors, quantiles, model_version, sigma, sigma_rw)
          values (${symbol}, '1h', ${at}, 1, 1, 0, 0.5, '{}', '{}', 'test', 0.01, 0.01)`.execute(db);
        await sql`insert into onchain_flows (chain, tx_hash, log_index, exchange, tx_index, block_number, block_hash, block_time,
          direction, asset, token_address, amount, amount_raw, decimals, usd_value, from_address, from_exchange, from_tag,
          to_address, to_exchange, to_tag, indexed_at)
          values ('eth', ${`0x${symbol}`}, 0, 'binance', 0, 1, '0xb', ${at}, 'deposit', 'ETH', null, '1', '1', 18, 1,
          '0xf', null, null, '0xt', 'binance', null, ${at})`.execute(db);
      }
      await sql`insert into prediction_gaps (from_ms, to_ms, missed_points, recorded_at)
        values (${NOW - 99 * DAY}, ${NOW - 98 * DAY}, 5, ${NOW - 98 * DAY})`.execute(db);

      const counts = await pruneOldData(db, loadConfig({ LOG_LEVEL: 'silent' }), NOW);
      // Derivatives series are pruned per metric too (none stored here; funding is kept by default).
      expect(counts).toEqual({
        '1m candles': 6000,
        predictions: 2,
        'exchange flows': 1,
        'derivatives basis': 0,
        'derivatives liquidations': 0,
        'derivatives open_interest': 0,
        'audit log': 0,
      });

      const count = async (query: ReturnType<typeof sql<{ n: string | number }>>) =>
        Number((await query.execute(db)).rows[0]!.n);
      expect(await count(sql`select count(*) as n from market_candles where interval = '1m'`)).toBe(10);
      expect(await count(sql`select count(*) as n from market_candles where interval = '1h'`)).toBe(24);
      expect(await count(sql`select count(*) as n from predictions`)).toBe(1);
      expect(await count(sql`select count(*) as n from prediction_gaps`)).toBe(0);
      expect(await count(sql`select count(*) as n from onchain_flows`)).toBe(1);

      // 0 keeps forever.
      const forever = loadConfig({
        LOG_LEVEL: 'silent',
        MERIDIAN_RETAIN_CANDLES_1M_DAYS: '0',
        MERIDIAN_RETAIN_PREDICTIONS_DAYS: '0',
        MERIDIAN_RETAIN_FLOWS_DAYS: '0',
        MERIDIAN_RETAIN_OPEN_INTEREST_DAYS: '0',
        MERIDIAN_RETAIN_BASIS_DAYS: '0',
        MERIDIAN_RETAIN_LIQUIDATIONS_DAYS: '0',
        MERIDIAN_AUDIT_RETENTION_DAYS: '0',
      });
      expect(await pruneOldData(db, forever, NOW + 1000 * DAY)).toEqual({});
      expect(await count(sql`select count(*) as n from predictions`)).toBe(1);
    } finally {
      await handle.close();
    }
  });
});
