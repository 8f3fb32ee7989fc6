import {
  type SupportedSymbols,
  clampLimit,
  durationMs,
  normalizeGranularity,
  type Horizon,
  normalizeHorizon,
} from '../../modules/identifiers/index.ts';
import type { PredictionsQuery, PredictionsService } from '../../modules/predictions/index.ts';
import { decodeCursor, encodeCursor } from '../../shared/cursor.ts';
import { AppError, type ProblemDetail, validationError } from '../../shared/errors.ts';
import { parseTime } from '../query-time.ts';
import { provenanceHeaderSource } from '../provenance.ts';
import { NORMALIZATION_HEADER, NormalizationLog } from '../normalization-header.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import { outlookBatchBody, outlookEntries } from './predictions-outlook.ts';
import { parseLevels } from './predictions-levels.ts';
import {
  LedgerPageSchema,
  LedgerQuerySchema,
  MAX_LEDGER_LIMIT,
  PredictionsPageSchema,
  PredictionsQuerySchema,
} from './predictions.schemas.ts';
import { ProbabilityQuerySchema, ProbabilitySchema } from './predictions-levels.schemas.ts';
import {
  MAX_OUTLOOK_SYMBOLS,
  OutlookBatchSchema,
  OutlookQuerySchema,
  OutlookSchema,
} from './predictions-outlook.schemas.ts';
import { PerformanceSchema } from './predictions-performance.schemas.ts';
import type { RouteModule } from '../types.ts';
import { sendBytes } from '../reply.ts';
import { type Static, Type } from 'typebox';
import type { FastifyReply } from 'fastify';

const INCLUDES = ['quantiles', 'outcome', 'modelVersion', 'backfilled'] as const;
const LEDGER_HEAD_HEADER = 'meridian-ledger-head';
/** The largest time a Date can hold: an open `to`. */
const LATEST = 8.64e15;

/** A ledger page's position: after sequence `a`, up to `u` (the head at the first page), recorded in [f, t). */
interface LedgerCursor {
  a: number;
  u: number;
  f: number;
  t: number;
  s?: string;
}

const ledgerCursor = (value: unknown): LedgerCursor | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  const ints = [c.a, c.u, c.f, c.t].every((n) => Number.isSafeInteger(n) && (n as number) >= 0);
  return ints && (c.s === undefined || typeof c.s === 'string') ? (c as unknown as LedgerCursor) : undefined;
};

/** Pre-serialized JSON: Fastify sends a Buffer as is (the response schema documents it, no re-serialization). */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * GET /api/predictions, /api/predictions/ai-outlook, /api/predictions/performance, /api/predictions/ledger.
 * Bodies are built once per model refresh by the service and sent as bytes (no per-request JSON.stringify);
 * the response schemas document the shape for OpenAPI. GET /api/predictions/probability is computed per
 * request (a few levels). Every answer names the forecast ledger's head
 * (`Meridian-Ledger-Head: <sequence>:<sha-256 hex>`).
 */
export interface PredictionsRouteDeps {
  predictions: Pick<
    PredictionsService,
    | 'outlook'
    | 'performance'
    | 'predictions'
    | 'predictionsBetween'
    | 'probabilities'
    | 'provenance'
    | 'ledger'
    | 'ledgerHead'
    | 'symbolOutlook'
    | 'warming'
  >;
  /** The supported symbol set (the symbols the market serves). */
  symbols: SupportedSymbols;
}

export function predictionsRoutes(deps: PredictionsRouteDeps): RouteModule {
  const { predictions, symbols } = deps;

  const sourceHeaders = provenanceHeaderSource(() => predictions.provenance());
  let head = predictions.ledgerHead();
  let headText = `${head.sequence}:${head.hash}`;
  /**
   * Provenance headers (the body is fixed to `data`): source, the data's own time, stale now or not; and the
   * ledger's head, which a client keeps to check later that the record it was shown was not rewritten.
   */
  const provenanceHeaders = (): Array<[string, string]> => {
    const now = predictions.ledgerHead();
    if (now !== head) {
      head = now;
      headText = `${now.sequence}:${now.hash}`;
    }
    const headers = sourceHeaders();
    headers.push([LEDGER_HEAD_HEADER, headText]);
    return headers;
  };
  /**
   * The provenance headers of a symbol's answer (at one horizon, when it is about one): `Meridian-Backfilling`
   * while its model still warms up, and so has no forecasts there yet.
   */
  const headersOf = (symbol: string, horizon?: Horizon): Array<[string, string]> => {
    const headers = provenanceHeaders();
    if (predictions.warming(symbol, horizon)) headers.push(['meridian-backfilling', 'true']);
    return headers;
  };
  const withProvenance = <R extends { header(name: string, value: string): unknown }>(
    reply: R,
    symbol?: string,
    horizon?: Horizon,
  ): R => {
    for (const [name, value] of symbol === undefined ? provenanceHeaders() : headersOf(symbol, horizon))
      reply.header(name, value);
    return reply;
  };
  /**
   * The service query of a page request and its `Meridian-Normalized` value, by URL: the answer depends on the
   * query string alone, so each distinct one is resolved once (up to 1,000; past that afresh each time).
   */
  const pageQueries = new Map<string, { query: PredictionsQuery; normalized: string | undefined }>();
  function pageQueryOf(url: string, q: Static<typeof PredictionsQuerySchema>) {
    let known = pageQueries.get(url);
    if (known === undefined) {
      const { query, log } = queryFor(q);
      known = { query, normalized: log.value() };
      if (pageQueries.size < 1_000) pageQueries.set(url, known);
    }
    return known;
  }

  /** A span of stored forecasts (`from`/`to`): read from storage, so the one asynchronous answer here. */
  async function sendSpan(q: Static<typeof PredictionsQuerySchema>, reply: FastifyReply) {
    const span = spanOf(q.from, q.to);
    const { query, log } = queryFor(q);
    log.apply(reply);
    const body = await predictions.predictionsBetween(query, span.from, span.to);
    return sendBytes(withProvenance(reply, query.symbol, query.horizon).type(JSON_TYPE), body);
  }

  /** The span of a from/to request: both checked, every problem reported at once; open ends are unbounded. */
  function spanOf(fromRaw: string | undefined, toRaw: string | undefined): { from: number; to: number } {
    const problems: ProblemDetail[] = [];
    const to = toRaw === undefined ? LATEST : parseTime(toRaw, 'to', problems);
    const from = fromRaw === undefined ? 0 : parseTime(fromRaw, 'from', problems);
    if (from !== undefined && to !== undefined && from > to)
      problems.push({ pointer: '/query/from', message: 'must not be after `to`' });
    if (problems.length || from === undefined || to === undefined) throw validationError(problems);
    return { from, to };
  }

  /** The service query of a request, and the parameters that were normalized to build it. */
  function queryFor(q: Static<typeof PredictionsQuerySchema>): {
    query: PredictionsQuery;
    log: NormalizationLog;
  } {
    const include = new Set<string>();
    for (const part of (q.include ?? '').split(',')) {
      const p = part.trim();
      if (!p) continue;
      if (!(INCLUDES as readonly string[]).includes(p))
        throw validationError([
          {
            pointer: '/query/include',
            message: `unknown value ${JSON.stringify(p)}; allowed: ${INCLUDES.join(', ')}`,
          },
        ]);
      include.add(p);
    }
    const strict = { strict: q.strict };
    const symbol = symbols.normalize(q.symbol, strict);
    const horizon = normalizeHorizon(q.horizon, strict);
    const granularity = normalizeGranularity(q.granularity, strict);
    const limit = clampLimit(q.limit);
    const log = new NormalizationLog()
      .add('symbol', q.symbol, symbol.value)
      .add('horizon', q.horizon, horizon.value)
      .add('granularity', q.granularity, granularity.value);
    if (q.limit !== undefined) log.add('limit', String(q.limit), String(limit));
    const query: PredictionsQuery = {
      symbol: symbol.value,
      horizon: horizon.value,
      granularityMs: durationMs(granularity.value),
      limit,
      quantiles: include.has('quantiles'),
      outcome: include.has('outcome'),
      modelVersion: include.has('modelVersion'),
      backfilled: include.has('backfilled'),
    };
    return { query, log };
  }

  return async (app) => {
    app.get(
      '/api/predictions',
      {
        config: { permission: 'predictions:read' },
        compress: false, // sendBytes encodes the body itself
        schema: {
          operationId: 'listPredictions',
          tags: ['predictions'],
          summary: 'Forecast datapoints for one symbol and horizon, oldest first',
          querystring: PredictionsQuerySchema,
          response: { 200: PredictionsPageSchema, 400: ProblemSchema, ...authProblems },
        },
      },
      // Synchronous for a page (bytes built per refresh): an async handler costs a promise and a microtask turn.
      (request, reply) => {
        const q = request.query;
        if (q.from !== undefined || q.to !== undefined) return sendSpan(q, reply);
        const { query, normalized } = pageQueryOf(request.url, q);
        if (normalized !== undefined) reply.header(NORMALIZATION_HEADER, normalized);
        sendBytes(
          withProvenance(reply, query.symbol, query.horizon).type(JSON_TYPE),
          predictions.predictions(query),
        );
      },
    );

    app.get(
      '/api/predictions/ai-outlook',
      {
        config: { permission: 'predictions:read' },
        compress: false, // sendBytes encodes the body itself
        schema: {
          operationId: 'getAiOutlook',
          tags: ['predictions'],
          summary: `Aggregated outlook: bias, score, confidence, per-horizon view and drivers — market-wide, of one symbol, or of up to ${MAX_OUTLOOK_SYMBOLS} symbols at once (symbols=…)`,
          querystring: OutlookQuerySchema,
          response: {
            200: Type.Union([OutlookSchema, OutlookBatchSchema]),
            400: ProblemSchema,
            ...authProblems,
          },
        },
      },
      (request, reply) => {
        const q = request.query;
        const log = new NormalizationLog();
        if (q.symbols !== undefined) {
          if (q.symbol !== undefined)
            throw validationError([
              { pointer: '/query/symbols', message: 'send either `symbol` or `symbols`, not both' },
            ]);
          const entries = outlookEntries(q.symbols, { strict: q.strict, symbols, log });
          log.apply(reply);
          for (const [name, value] of provenanceHeaders()) reply.header(name, value);
          if (entries.some((e) => e.symbol !== undefined && predictions.warming(e.symbol)))
            reply.header('meridian-backfilling', 'true');
          sendBytes(reply.type(JSON_TYPE), outlookBatchBody(entries, predictions));
          return;
        }
        let symbol: string | undefined;
        if (q.symbol !== undefined) {
          const s = symbols.normalize(q.symbol, { strict: q.strict });
          log.add('symbol', q.symbol, s.value).apply(reply);
          symbol = s.value;
        }
        sendBytes(withProvenance(reply, symbol).type(JSON_TYPE), predictions.outlook(symbol));
      },
    );

    app.get(
      '/api/predictions/probability',
      {
        config: { permission: 'predictions:read' },
        schema: {
          operationId: 'getLevelProbabilities',
          tags: ['predictions'],
          summary:
            'Probability that the price ends above each level at the horizon, and that it touches it before, from the newest forecast',
          querystring: ProbabilityQuerySchema,
          response: { 200: ProbabilitySchema, 400: ProblemSchema, 503: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const levels = parseLevels(q.levels);
        const strict = { strict: q.strict };
        const symbol = symbols.normalize(q.symbol, strict);
        const horizon = normalizeHorizon(q.horizon, strict);
        new NormalizationLog()
          .add('symbol', q.symbol, symbol.value)
          .add('horizon', q.horizon, horizon.value)
          .apply(reply);
        const body = predictions.probabilities(symbol.value, horizon.value, levels);
        if (!body)
          throw new AppError(
            'unavailable',
            `no forecast of ${symbol.value} at ${horizon.value} yet: the model is still warming up`,
            { headers: { 'retry-after': '10' } },
          );
        withProvenance(reply, symbol.value, horizon.value);
        return body;
      },
    );

    app.get(
      '/api/predictions/performance',
      {
        config: { permission: 'predictions:read' },
        compress: false, // sendBytes encodes the body itself
        schema: {
          operationId: 'getPredictionPerformance',
          tags: ['predictions'],
          summary: 'Scored track record per symbol and horizon',
          // No parameters: one naming a filter (`?symbol=`) is refused rather than silently ignored.
          querystring: Type.Object({}, { additionalProperties: false }),
          response: { 200: PerformanceSchema, 400: ProblemSchema, ...authProblems },
        },
      },
      async (_request, reply) => sendBytes(withProvenance(reply).type(JSON_TYPE), predictions.performance()),
    );

    app.get(
      '/api/predictions/ledger',
      {
        config: { permission: 'predictions:read' },
        schema: {
          operationId: 'listPredictionLedger',
          tags: ['predictions'],
          summary:
            'The forecast ledger: every published datapoint as a SHA-256 hash-chained entry, oldest first, with a cursor to the next page',
          querystring: LedgerQuerySchema,
          response: { 200: LedgerPageSchema, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const log = new NormalizationLog();
        const limit = Math.min(q.limit ?? 500, MAX_LEDGER_LIMIT);
        if (q.limit !== undefined) log.add('limit', String(q.limit), String(limit));
        let position: LedgerCursor | undefined;
        let from: number;
        let to: number;
        let symbol: string | undefined;
        if (q.cursor !== undefined) {
          position = decodeCursor(q.cursor, ledgerCursor);
          ({ f: from, t: to, s: symbol } = position);
        } else {
          const problems: ProblemDetail[] = [];
          const fromGiven = q.from !== undefined ? parseTime(q.from, 'from', problems) : 0;
          const toGiven = q.to !== undefined ? parseTime(q.to, 'to', problems) : LATEST;
          if (problems.length || fromGiven === undefined || toGiven === undefined)
            throw validationError(problems);
          if (fromGiven >= toGiven)
            throw validationError([{ pointer: '/query/from', message: 'must be before `to`' }]);
          from = fromGiven;
          to = toGiven;
          if (q.symbol !== undefined) {
            const s = symbols.normalize(q.symbol, { strict: q.strict });
            log.add('symbol', q.symbol, s.value);
            symbol = s.value;
          }
        }
        const page = await predictions.ledger({
          afterSequence: position?.a ?? 0,
          upToSequence: position?.u,
          from,
          to,
          symbol,
          limit,
        });
        const last = page.entries.at(-1);
        const nextCursor =
          last && page.entries.length === limit && last.sequence < page.upToSequence
            ? encodeCursor({
                a: last.sequence,
                u: page.upToSequence,
                f: from,
                t: to,
                ...(symbol === undefined ? {} : { s: symbol }),
              } satisfies LedgerCursor)
            : null;
        log.apply(reply);
        withProvenance(reply);
        return { data: page.entries, nextCursor, head: page.head };
      },
    );
  };
}
