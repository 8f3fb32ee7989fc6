import { type Kysely, type QueryExecutorProvider, sql } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import type { Candle } from './candles.ts';
import type { CandleRepository, StoredCandle } from './repository.ts';
import type { MarketTables } from './tables.ts';

/** Rows per statement: large enough to amortize a round trip, small enough to keep each write short. */
const BATCH = 2000;

export function createKyselyCandleRepository(db: Kysely<MarketTables>): CandleRepository {
  const toCandle = (r: {
    open_time: number;
    open: number;
    high: number;
    low: number;
    close: number;
    volume: number;
    quote_volume: number;
  }): Candle => ({
    openTime: Number(r.open_time),
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume,
    quoteVolume: r.quote_volume,
  });
  async function upsertBatches(executor: QueryExecutorProvider, rows: readonly StoredCandle[]) {
    // One statement per batch with each column as an array (unnest): ~3× faster than a multi-row VALUES
    // list on PGlite and PostgreSQL alike, and the statement text stays constant.
    // The same key twice in one statement would fail ("ON CONFLICT DO UPDATE command cannot affect row a
    // second time"): keep the last row per key, like the memory twin.
    const byKey = new Map<string, StoredCandle>();
    for (const r of rows) byKey.set(`${r.symbol}|${r.venue}|${r.interval}|${r.openTime}`, r);
    const unique = byKey.size === rows.length ? rows : [...byKey.values()];
    for (let i = 0; i < unique.length; i += BATCH) {
      const chunk = unique.slice(i, i + BATCH);
      const col = <T>(f: (r: StoredCandle) => T) => chunk.map(f);
      await sql`
        insert into market_candles (symbol, venue, interval, open_time, open, high, low, close, volume, quote_volume)
        select * from unnest(
          ${col((r) => r.symbol)}::text[], ${col((r) => r.venue)}::text[], ${col((r) => r.interval)}::text[],
          ${col((r) => r.openTime)}::bigint[], ${col((r) => r.open)}::float8[], ${col((r) => r.high)}::float8[],
          ${col((r) => r.low)}::float8[], ${col((r) => r.close)}::float8[], ${col((r) => r.volume)}::float8[],
          ${col((r) => r.quoteVolume)}::float8[])
        on conflict (symbol, venue, interval, open_time) do update set
          open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
          volume = excluded.volume, quote_volume = excluded.quote_volume`.execute(executor);
    }
  }
  return {
    async upsert(rows, term) {
      if (term && term.term !== 0) {
        await db.transaction().execute(async (trx) => {
          await assertLeaderTerm(trx, term);
          await upsertBatches(trx, rows);
        });
      } else await upsertBatches(db, rows);
    },
    async range(symbol, venue, interval, fromMs, toMs, limit) {
      const rows = await db
        .selectFrom('market_candles')
        .select(['open_time', 'open', 'high', 'low', 'close', 'volume', 'quote_volume'])
        .where('symbol', '=', symbol)
        .where('venue', '=', venue)
        .where('interval', '=', interval)
        .where('open_time', '>=', fromMs)
        .where('open_time', '<', toMs)
        .orderBy('open_time', 'asc')
        .limit(limit)
        .execute();
      return rows.map(toCandle);
    },
    async latestOpenTime(symbol, venue, interval) {
      const row = await db
        .selectFrom('market_candles')
        .select('open_time')
        .where('symbol', '=', symbol)
        .where('venue', '=', venue)
        .where('interval', '=', interval)
        .orderBy('open_time', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? Number(row.open_time) : undefined;
    },
    async at(symbol, venue, interval, atMs) {
      const row = await db
        .selectFrom('market_candles')
        .select(['open_time', 'open', 'high', 'low', 'close', 'volume', 'quote_volume'])
        .where('symbol', '=', symbol)
        .where('venue', '=', venue)
        .where('interval', '=', interval)
        .where('open_time', '<=', atMs)
        .orderBy('open_time', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toCandle(row) : undefined;
    },
  };
}
