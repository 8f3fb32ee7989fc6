import {
  type Bucket,
  type DerivativesMetric,
  type DerivativesService,
  annualizedPct,
  isDerivativesMetric,
} from '../../modules/derivatives/index.ts';
import {
  INTERVAL_MS,
  type Interval,
  type SupportedSymbols,
  normalizeInterval,
} from '../../modules/identifiers/index.ts';
import { decodeCursor, encodeCursor } from '../../shared/cursor.ts';
import { type ProblemDetail, validationError } from '../../shared/errors.ts';
import { createMarketSelector } from '../market-selection.ts';
import { NormalizationLog } from '../normalization-header.ts';
import { type Provenance, provenanceHeaders } from '../provenance.ts';
import { parseTime } from '../query-time.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import {
  DerivativesHistoryQuery,
  DerivativesHistoryResponse,
  DerivativesQuery,
  DerivativesResponse,
} from './derivatives.schemas.ts';

const MAX_POINTS = 1000;

/** A history page's position: symbol, metric, interval, the next page's `from` and the range's end. */
interface HistoryCursor {
  s: string;
  m: DerivativesMetric;
  i: Interval;
  f: number;
  t: number;
}

const historyCursor = (c: unknown): HistoryCursor | undefined => {
  if (typeof c !== 'object' || c === null) return undefined;
  const v = c as Record<string, unknown>;
  return typeof v.s === 'string' &&
    typeof v.m === 'string' &&
    isDerivativesMetric(v.m) &&
    typeof v.i === 'string' &&
    Object.hasOwn(INTERVAL_MS, v.i) &&
    Number.isInteger(v.f) &&
    Number.isInteger(v.t)
    ? (v as unknown as HistoryCursor)
    : undefined;
};

/** GET /api/derivatives and GET /api/derivatives/history. */
export interface DerivativesRouteDeps {
  derivatives: Pick<
    DerivativesService,
    'views' | 'history' | 'historyState' | 'asOf' | 'stale' | 'now' | 'source' | 'simulated'
  >;
  symbols: SupportedSymbols;
}

/** A stored bucket as the history answer shows it, with the fields of its metric. */
/** One literal per point (no spreads): a 1,000-point page builds 1,000 objects, not 3,000. */
function pointOf(metric: DerivativesMetric, b: Bucket) {
  const timestamp = new Date(b.start).toISOString();
  switch (metric) {
    case 'funding':
      return b.value === null
        ? { timestamp, time: b.start, at: b.time }
        : { timestamp, time: b.start, at: b.time, rate: b.value, annualizedPct: annualizedPct(b.value, 8) };
    case 'open_interest':
      return {
        timestamp,
        time: b.start,
        at: b.time,
        openInterestUsd: b.value ?? undefined,
        openInterestContracts: b.value2 ?? undefined,
      };
    case 'basis':
      return b.value === null
        ? { timestamp, time: b.start, at: b.time }
        : { timestamp, time: b.start, at: b.time, bps: b.value };
    case 'liquidations':
      return { timestamp, time: b.start, at: b.time, longUsd: b.value ?? 0, shortUsd: b.value2 ?? 0 };
  }
}

export function derivativesRoutes(deps: DerivativesRouteDeps): RouteModule {
  const { derivatives, symbols } = deps;
  const selector = createMarketSelector(symbols);
  const provenance = (): Provenance & { simulated: boolean } => ({
    source: derivatives.source,
    simulated: derivatives.simulated,
    asOf: derivatives.asOf(),
    stale: derivatives.stale(),
  });
  const body = (p: ReturnType<typeof provenance>) => ({
    source: p.source,
    simulated: p.simulated,
    asOf: p.asOf === null ? null : new Date(p.asOf).toISOString(),
    stale: p.stale,
  });

  return (app) => {
    app.get(
      '/api/derivatives',
      {
        config: { permission: 'market:read' },
        schema: {
          operationId: 'getDerivatives',
          tags: ['market'],
          summary:
            'Perpetual futures per symbol: funding now and predicted, open interest with its 24 h change, basis, liquidations over 1 h and 24 h, per venue',
          querystring: DerivativesQuery,
          response: { 200: DerivativesResponse, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const log = new NormalizationLog();
        const list =
          q.symbols === undefined
            ? symbols.list
            : selector.select({ symbols: q.symbols.split(','), strict: q.strict }, log);
        log.apply(reply);
        const p = provenance();
        for (const [name, value] of provenanceHeaders(p)) reply.header(name, value);
        if (p.simulated) reply.header('meridian-simulated', 'true');
        return { data: derivatives.views(list), ...body(p) };
      },
    );

    app.get(
      '/api/derivatives/history',
      {
        config: { permission: 'market:read' },
        schema: {
          operationId: 'getDerivativesHistory',
          tags: ['market'],
          summary:
            'A derivatives series (funding, open interest, basis or liquidations) per interval, oldest first, with a cursor',
          querystring: DerivativesHistoryQuery,
          response: { 200: DerivativesHistoryResponse, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const log = new NormalizationLog();
        const limit = Math.min(q.limit ?? 500, MAX_POINTS);
        if (q.limit !== undefined) log.add('limit', String(q.limit), String(limit));
        let c: HistoryCursor;
        if (q.cursor !== undefined) c = decodeCursor(q.cursor, historyCursor);
        else {
          const problems: ProblemDetail[] = [];
          if (q.symbol === undefined) problems.push({ pointer: '/query/symbol', message: 'is required' });
          if (q.metric === undefined)
            problems.push({
              pointer: '/query/metric',
              message: 'is required: funding, open_interest, basis or liquidations',
            });
          const fromGiven = q.from !== undefined ? parseTime(q.from, 'from', problems) : undefined;
          const toGiven = q.to !== undefined ? parseTime(q.to, 'to', problems) : undefined;
          if (problems.length || q.symbol === undefined || q.metric === undefined)
            throw validationError(problems);
          const s = symbols.normalize(q.symbol, { strict: q.strict });
          log.add('symbol', q.symbol, s.value);
          const i = normalizeInterval(q.interval, { strict: q.strict });
          log.add('interval', q.interval, i.value);
          const ms = INTERVAL_MS[i.value];
          const to = toGiven ?? Math.floor(derivatives.now() / ms) * ms + ms;
          const from = fromGiven ?? to - limit * ms;
          if (from >= to) throw validationError([{ pointer: '/query/from', message: 'must be before `to`' }]);
          c = { s: s.value, m: q.metric, i: i.value, f: from, t: to };
        }
        const ms = INTERVAL_MS[c.i];
        const buckets = await derivatives.history({
          symbol: c.s,
          metric: c.m,
          intervalMs: ms,
          fromMs: Math.ceil(c.f / ms) * ms,
          toMs: c.t,
          limit,
        });
        const last = buckets.at(-1);
        const nextFrom = last ? last.start + ms : c.t;
        const nextCursor =
          buckets.length === limit && nextFrom < c.t
            ? encodeCursor({ ...c, f: nextFrom } satisfies HistoryCursor)
            : null;
        log.apply(reply);
        const p = provenance();
        for (const [name, value] of provenanceHeaders(p)) reply.header(name, value);
        if (p.simulated) reply.header('meridian-simulated', 'true');
        const state = derivatives.historyState(c.s);
        if (state.filling) reply.header('meridian-backfilling', 'true');
        return {
          symbol: c.s,
          metric: c.m,
          interval: c.i,
          data: buckets.map((b) => pointOf(c.m, b)),
          nextCursor,
          history: { backfilling: state.filling, availableFrom: new Date(state.from).toISOString() },
          ...body(p),
        };
      },
    );
  };
}
