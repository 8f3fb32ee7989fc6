import {
  type SupportedSymbols,
  clampLimit,
  durationMs,
  normalizeGranularity,
  normalizeHorizon,
} from '../../modules/identifiers/index.ts';
import type { PredictionsQuery, PredictionsService } from '../../modules/predictions/index.ts';
import { type ProblemDetail, validationError } from '../../shared/errors.ts';
import { parseTime } from '../query-time.ts';
import { provenanceHeaderSource } from '../provenance.ts';
import { NormalizationLog } from '../normalization-header.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import {
  OutlookQuerySchema,
  OutlookSchema,
  PerformanceSchema,
  PredictionsPageSchema,
  PredictionsQuerySchema,
} from './predictions.schemas.ts';
import type { RouteModule } from '../types.ts';
import { sendBytes } from '../reply.ts';
import { plainQuery } from '../hot-lane.ts';
import type { Static } from 'typebox';

const INCLUDES = ['quantiles', 'outcome', 'modelVersion', 'backfilled'] as const;
/** The parameters a hot-lane request may carry (no `from`/`to`: those read storage). */
const HOT_PARAMETERS = ['symbol', 'horizon', 'granularity', 'limit', 'include'] as const;
/** A limit the schema would take as it is: plain digits, no sign, no leading zero. */
const PLAIN_LIMIT = /^[1-9][0-9]{0,2}$/;
/** A value no longer than the schema allows (longer ones get the pipeline's 400). */
const withinSchema = (name: (typeof HOT_PARAMETERS)[number], value: string | undefined): boolean => {
  const max = (PredictionsQuerySchema.properties[name] as { maxLength?: number }).maxLength;
  return value === undefined || max === undefined || value.length <= max;
};
/** The largest time a Date can hold: an open `to`. */
const LATEST = 8.64e15;

/** Pre-serialized JSON: Fastify sends a Buffer as is (the response schema documents it, no re-serialization). */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * GET /api/predictions, /api/predictions/ai-outlook, /api/predictions/performance. Bodies are built once per
 * model refresh by the service and sent as bytes (no per-request JSON.stringify); the response schemas
 * document the shape for OpenAPI.
 */
export interface PredictionsRouteDeps {
  predictions: Pick<
    PredictionsService,
    'outlook' | 'performance' | 'predictions' | 'predictionsBetween' | 'provenance' | 'warming'
  >;
  /** The supported symbol set (the symbols the market serves). */
  symbols: SupportedSymbols;
}

export function predictionsRoutes(deps: PredictionsRouteDeps): RouteModule {
  const { predictions, symbols } = deps;

  /** Provenance headers (the body is fixed to `data`): source, the data's own time, stale now or not. */
  const provenanceHeaders = provenanceHeaderSource(() => predictions.provenance());
  /** The provenance headers of a symbol's answer: `Meridian-Backfilling` while its model still warms up. */
  const headersOf = (symbol: string): Array<[string, string]> => {
    const headers = provenanceHeaders();
    if (predictions.warming(symbol)) headers.push(['meridian-backfilling', 'true']);
    return headers;
  };
  const withProvenance = <R extends { header(name: string, value: string): unknown }>(
    reply: R,
    symbol?: string,
  ): R => {
    for (const [name, value] of symbol === undefined ? provenanceHeaders() : headersOf(symbol))
      reply.header(name, value);
    return reply;
  };
  /**
   * The service query of a plain hot-lane query string, or null when the full pipeline must answer it:
   * `symbol` and `horizon` and optionally `granularity`, `limit` and `include`, all in canonical form (nothing
   * to normalize, a limit of plain digits, no `from`/`to`). The answer depends on the string alone, so it is
   * kept (up to 1,000 distinct strings; past that each is resolved afresh) and the per-request work is a map
   * lookup.
   */
  const hotQueries = new Map<string, PredictionsQuery | null>();
  function hotQuery(raw: string): PredictionsQuery | null {
    let resolved = hotQueries.get(raw);
    if (resolved !== undefined) return resolved;
    resolved = null;
    const q = plainQuery(raw, HOT_PARAMETERS);
    if (
      q?.symbol !== undefined &&
      q.horizon !== undefined &&
      (q.limit === undefined || PLAIN_LIMIT.test(q.limit)) &&
      HOT_PARAMETERS.every((name) => withinSchema(name, q[name]))
    ) {
      try {
        const { query, log } = queryFor({
          symbol: q.symbol,
          horizon: q.horizon,
          granularity: q.granularity,
          limit: q.limit === undefined ? undefined : Number(q.limit),
          include: q.include,
        });
        if (log.value() === undefined) resolved = query;
      } catch {
        // Not a valid request: the full pipeline answers it with its problem.
      }
    }
    if (hotQueries.size < 1_000) hotQueries.set(raw, resolved);
    return resolved;
  }

  /** A predictions page, and the parameters that were normalized to build it. */
  function pageFor(q: Static<typeof PredictionsQuerySchema>): {
    body: Buffer;
    log: NormalizationLog;
    symbol: string;
  } {
    const { query, log } = queryFor(q);
    return { body: predictions.predictions(query), log, symbol: query.symbol };
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
        config: {
          permission: 'predictions:read',
          // A canonical request without from/to on the hot lane (`hotQuery`); anything else through here.
          hot: (query) => {
            const resolved = hotQuery(query);
            return resolved
              ? { body: predictions.predictions(resolved), headers: headersOf(resolved.symbol) }
              : undefined;
          },
        },
        schema: {
          operationId: 'listPredictions',
          tags: ['predictions'],
          summary: 'Forecast datapoints for one symbol and horizon, oldest first',
          querystring: PredictionsQuerySchema,
          response: { 200: PredictionsPageSchema, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const q = request.query;
        if (q.from !== undefined || q.to !== undefined) {
          const span = spanOf(q.from, q.to);
          const { query, log } = queryFor(q);
          log.apply(reply);
          const body = await predictions.predictionsBetween(query, span.from, span.to);
          return sendBytes(withProvenance(reply, query.symbol).type(JSON_TYPE), body);
        }
        const page = pageFor(q);
        page.log.apply(reply);
        return sendBytes(withProvenance(reply, page.symbol).type(JSON_TYPE), page.body);
      },
    );

    app.get(
      '/api/predictions/ai-outlook',
      {
        config: { permission: 'predictions:read' },
        schema: {
          operationId: 'getAiOutlook',
          tags: ['predictions'],
          summary: 'Aggregated outlook: bias, score, confidence, per-horizon view and drivers',
          querystring: OutlookQuerySchema,
          response: { 200: OutlookSchema, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const q = request.query;
        let symbol: string | undefined;
        if (q.symbol !== undefined) {
          const s = symbols.normalize(q.symbol, { strict: q.strict });
          new NormalizationLog().add('symbol', q.symbol, s.value).apply(reply);
          symbol = s.value;
        }
        return sendBytes(withProvenance(reply, symbol).type(JSON_TYPE), predictions.outlook(symbol));
      },
    );

    app.get(
      '/api/predictions/performance',
      {
        config: { permission: 'predictions:read' },
        schema: {
          operationId: 'getPredictionPerformance',
          tags: ['predictions'],
          summary: 'Scored track record per symbol and horizon',
          response: { 200: PerformanceSchema, ...authProblems },
        },
      },
      async (_request, reply) => sendBytes(withProvenance(reply).type(JSON_TYPE), predictions.performance()),
    );
  };
}
