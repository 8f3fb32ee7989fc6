import { type Kysely, sql } from 'kysely';
import { assertLeaderTerm } from '../../adapters/db/leader-fence.ts';
import { type LedgerHead, chainEntries } from './ledger/chain.ts';
import type {
  LedgerEntry,
  LedgerRecord,
  PredictionRepository,
  PredictionRow,
  ScoreUpdate,
} from './repository.ts';
import type { PredictionsTables } from './tables.ts';

export function createKyselyPredictionRepository(
  db: Kysely<PredictionsTables>,
  /** The time ledger entries are recorded at (the service's clock). */
  options: { now?: () => number } = {},
): PredictionRepository {
  const now = options.now ?? Date.now;
  /** Inserts the datapoints not stored yet and appends their ledger entries; the caller's transaction. */
  async function insertInto(
    db: Kysely<PredictionsTables>,
    batch: readonly PredictionRow[],
  ): Promise<LedgerHead> {
    const stored = new Set<string>();
    for (let k = 0; k < batch.length; k += 500) {
      const chunk = batch.slice(k, k + 500).map((r) => ({
        ...r,
        factors: JSON.stringify(r.factors),
        quantiles: JSON.stringify(r.quantiles),
        facts: JSON.stringify(r.facts),
      }));
      // jsonb columns are written as JSON text.
      await db
        .insertInto('predictions')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .returning(['symbol', 'horizon', 'generated_at'])
        .execute()
        .then((inserted) => {
          for (const r of inserted) stored.add(`${r.symbol}|${r.horizon}|${Number(r.generated_at)}`);
        });
    }
    return appendLedger(
      db,
      batch.filter((r) => stored.has(`${r.symbol}|${r.horizon}|${r.generated_at}`)),
    );
  }
  /**
   * Appends the entries of newly stored datapoints. The head row is locked first, so appends from several
   * processes (one per market partition) queue instead of forking the chain.
   */
  async function appendLedger(
    trx: Kysely<PredictionsTables>,
    rows: readonly PredictionRow[],
  ): Promise<LedgerHead> {
    const head = await trx
      .selectFrom('prediction_ledger_head')
      .select(['sequence', 'hash'])
      .where('id', '=', 1)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const entries = chainEntries({ sequence: Number(head.sequence), hash: head.hash }, rows, now());
    if (!entries.length) return { sequence: Number(head.sequence), hash: head.hash };
    for (let k = 0; k < entries.length; k += 500)
      await trx
        .insertInto('prediction_ledger')
        .values(entries.slice(k, k + 500))
        .execute();
    const last = entries.at(-1)!;
    await trx
      .updateTable('prediction_ledger_head')
      .set({ sequence: last.sequence, hash: last.hash })
      .where('id', '=', 1)
      .execute();
    return { sequence: last.sequence, hash: last.hash };
  }
  /**
   * The scores of one refresh in one statement per 500 rows (an UPDATE joined to a VALUES list), not one
   * statement per row: a refresh scores about three rows a symbol, and per row that was a round trip each
   * (to the storage thread or the server), hundreds a refresh at 200 symbols.
   */
  async function scoreIn(trx: Kysely<PredictionsTables>, updates: readonly ScoreUpdate[]) {
    for (let k = 0; k < updates.length; k += 500) {
      const values = sql.join(
        updates
          .slice(k, k + 500)
          .map(
            (u) =>
              sql`(${u.symbol}::text, ${u.horizon}::text, ${u.generated_at}::bigint, ${u.realized}::double precision, ${u.hit}::boolean, ${u.crps}::double precision, ${u.crps_rw}::double precision, ${u.crps_garch}::double precision, ${u.crps_har_rv}::double precision, ${u.covered80}::boolean, ${u.covered90}::boolean, ${u.scored_at}::bigint)`,
          ),
      );
      await sql`UPDATE predictions AS p SET realized = v.realized, hit = v.hit, crps = v.crps, crps_rw = v.crps_rw,
        crps_garch = v.crps_garch, crps_har_rv = v.crps_har_rv, covered80 = v.covered80, covered90 = v.covered90, scored_at = v.scored_at
        FROM (VALUES ${values}) AS v(symbol, horizon, generated_at, realized, hit, crps, crps_rw, crps_garch, crps_har_rv, covered80, covered90, scored_at)
        WHERE p.symbol = v.symbol AND p.horizon = v.horizon AND p.generated_at = v.generated_at`.execute(trx);
    }
  }
  return {
    insert: (batch) => db.transaction().execute((trx) => insertInto(trx, batch)),
    async score(updates) {
      if (!updates.length) return;
      await db.transaction().execute((trx) => scoreIn(trx, updates));
    },
    async record(batch, updates, term) {
      return db.transaction().execute(async (trx) => {
        await assertLeaderTerm(trx, term);
        const head = await insertInto(trx, batch);
        await scoreIn(trx, updates);
        return head;
      });
    },
    async ledgerHead() {
      const head = await db
        .selectFrom('prediction_ledger_head')
        .select(['sequence', 'hash'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      return { sequence: Number(head.sequence), hash: head.hash };
    },
    async ledger(q) {
      const found = await sql<LedgerJoin>`select l.*, p.generated_at as row_at, p.baseline, p.prediction,
          p.expected_move_pct, p.confidence, p.factors, p.quantiles, p.model_version, p.sigma, p.sigma_rw,
          p.realized, p.hit, p.crps, p.crps_rw, p.crps_garch, p.crps_har_rv, p.covered80, p.covered90, p.scored_at, p.direction_earned, p.facts,
          p.backfilled as row_backfilled
        from prediction_ledger l left join predictions p
          on p.symbol = l.symbol and p.horizon = l.horizon and p.generated_at = l.generated_at
        where l.sequence > ${q.afterSequence} and l.sequence <= ${q.upToSequence}
          and l.recorded_at >= ${q.from} and l.recorded_at < ${q.to}
          ${q.symbol === undefined ? sql`` : sql`and l.symbol = ${q.symbol}`}
        order by l.sequence limit ${q.limit}`.execute(db);
      return found.rows.map(ledgerRecordOf);
    },
    async recordGap(gap) {
      await db
        .insertInto('prediction_gaps')
        .values(gap)
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    async gaps(since) {
      const rows = await db
        .selectFrom('prediction_gaps')
        .selectAll()
        .where('to_ms', '>=', since)
        .orderBy('from_ms')
        .execute();
      return rows.map((g) => ({
        from_ms: Number(g.from_ms),
        to_ms: Number(g.to_ms),
        missed_points: g.missed_points,
        recorded_at: Number(g.recorded_at),
      }));
    },
    async since(since, q) {
      if (q?.symbols?.length === 0) return [];
      let query = db.selectFrom('predictions').selectAll().where('generated_at', '>=', since);
      if (q?.before !== undefined) query = query.where('generated_at', '<', q.before);
      if (q?.symbols) query = query.where('symbol', 'in', [...q.symbols]);
      return (await query.orderBy('generated_at').execute()).map(fromStorage);
    },
    async oldest(since) {
      const row = await db
        .selectFrom('predictions')
        .select((eb) => eb.fn.min('generated_at').as('oldest'))
        .where('generated_at', '>=', since)
        .executeTakeFirst();
      return row?.oldest === null || row?.oldest === undefined ? undefined : Number(row.oldest);
    },
    async changedSince(q) {
      if (q.symbols?.length === 0) return [];
      let query = db
        .selectFrom('predictions')
        .selectAll()
        .where('generated_at', '>=', q.notBefore)
        .where((eb) =>
          eb.or([eb('generated_at', '>', q.generatedAfter), eb('scored_at', '>', q.scoredAfter)]),
        );
      if (q.symbols) query = query.where('symbol', 'in', [...q.symbols]);
      return (await query.orderBy('generated_at').execute()).map(fromStorage);
    },
    async between(symbol, horizon, from, to) {
      const rows = await db
        .selectFrom('predictions')
        .selectAll()
        .where('symbol', '=', symbol)
        .where('horizon', '=', horizon)
        .where('generated_at', '>=', from)
        .where('generated_at', '<=', to)
        .orderBy('generated_at')
        .execute();
      return rows.map(fromStorage);
    },
  };
}

/** bigint columns arrive as strings from PostgreSQL. */
function fromStorage(r: PredictionRow): PredictionRow {
  return {
    ...r,
    generated_at: Number(r.generated_at),
    scored_at: r.scored_at === null ? null : Number(r.scored_at),
  };
}

type LedgerJoin = LedgerEntry & { row_at: number | null; row_backfilled: boolean | null } & Omit<
    { [K in keyof PredictionRow]: PredictionRow[K] | null },
    'symbol' | 'horizon' | 'generated_at' | 'backfilled'
  >;

/** A joined ledger row as the entry and, when still stored, its datapoint (bigint columns as numbers). */
function ledgerRecordOf(j: LedgerJoin): LedgerRecord {
  const entry: LedgerEntry = {
    sequence: Number(j.sequence),
    recorded_at: Number(j.recorded_at),
    symbol: j.symbol,
    horizon: j.horizon,
    generated_at: Number(j.generated_at),
    backfilled: j.backfilled,
    payload: j.payload,
    prev_hash: j.prev_hash,
    hash: j.hash,
  };
  if (j.row_at === null) return { entry, row: undefined };
  const row = fromStorage({
    symbol: j.symbol,
    horizon: j.horizon,
    generated_at: entry.generated_at,
    baseline: j.baseline!,
    prediction: j.prediction!,
    expected_move_pct: j.expected_move_pct!,
    confidence: j.confidence!,
    factors: j.factors!,
    quantiles: j.quantiles!,
    model_version: j.model_version!,
    sigma: j.sigma!,
    sigma_rw: j.sigma_rw!,
    realized: j.realized,
    hit: j.hit,
    crps: j.crps,
    crps_rw: j.crps_rw,
    crps_garch: j.crps_garch,
    crps_har_rv: j.crps_har_rv,
    covered80: j.covered80,
    covered90: j.covered90,
    scored_at: j.scored_at,
    direction_earned: j.direction_earned!,
    facts: j.facts!,
    backfilled: j.row_backfilled!,
  });
  return { entry, row };
}
