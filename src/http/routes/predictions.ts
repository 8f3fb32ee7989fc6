import { durationMs } from '../../modules/symbols/index.ts';
import {
  NormalizationLog,
  normalizeGranularity,
  normalizeHorizon,
  normalizeSymbol,
} from '../../modules/symbols/index.ts';
import {
  OutlookQuerySchema,
  OutlookSchema,
  PerformanceSchema,
  PredictionsPageSchema,
  PredictionsQuerySchema,
  type PredictionsService,
} from '../../modules/predictions/index.ts';
import { validationError } from '../../shared/errors.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { sendBytes } from '../reply.ts';
import { plainQuery } from '../hot-lane.ts';
import type { Static } from 'typebox';

const INCLUDES = ['quantiles', 'outcome', 'modelVersion', 'backfilled'] as const;
const MAX_LIMIT = 96;

/** Pre-serialized JSON: Fastify sends a Buffer as is (the response schema documents it, no re-serialization). */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * GET /api/predictions, /api/predictions/ai-outlook, /api/predictions/performance. Bodies are built once per
 * model refresh by the service and sent as bytes (no per-request JSON.stringify); the response schemas
 * document the shape for OpenAPI.
 */
export interface PredictionsRouteDeps {
  predictions: Pick<PredictionsService, 'outlook' | 'performance' | 'predictions'>;
}

export function predictionsRoutes(deps: PredictionsRouteDeps): RouteModule {
  const { predictions } = deps;
  /** A predictions page, and the parameters that were normalized to build it. */
  function pageFor(q: Static<typeof PredictionsQuerySchema>): { body: Buffer; log: NormalizationLog } {
    const include = new Set<string>();
    for (const part of (q.include ?? '').split(',')) {
      const p = part.trim();
      if (!p) continue;
      if (!(INCLUDES as readonly string[]).includes(p))
        throw validationError([
          {
            pointer: '/include',
            message: `unknown value ${JSON.stringify(p)}; allowed: ${INCLUDES.join(', ')}`,
          },
        ]);
      include.add(p);
    }
    const symbol = normalizeSymbol(q.symbol);
    const horizon = normalizeHorizon(q.horizon);
    const granularity = normalizeGranularity(q.granularity);
    const limit = Math.min(q.limit ?? MAX_LIMIT, MAX_LIMIT);
    const log = new NormalizationLog()
      .add('symbol', q.symbol, symbol.symbol)
      .add('horizon', q.horizon, horizon.value)
      .add('granularity', q.granularity, granularity.value);
    if (q.limit !== undefined) log.add('limit', String(q.limit), String(limit));
    const body = predictions.predictions({
      symbol: symbol.symbol,
      horizon: horizon.value,
      granularityMs: durationMs(granularity.value),
      limit,
      quantiles: include.has('quantiles'),
      outcome: include.has('outcome'),
      modelVersion: include.has('modelVersion'),
      backfilled: include.has('backfilled'),
    });
    return { body, log };
  }

  return async (app) => {
    app.get(
      '/api/predictions',
      {
        config: {
          permission: 'predictions:read',
          // The plain request (`?symbol=…&horizon=…` as listed) on the hot lane; anything else through here.
          hot: (query) => {
            const q = plainQuery(query, ['symbol', 'horizon'] as const);
            if (q?.symbol === undefined || q.horizon === undefined) return undefined;
            try {
              const page = pageFor({ symbol: q.symbol, horizon: q.horizon });
              return page.log.value() === undefined ? { body: page.body } : undefined;
            } catch {
              return undefined;
            }
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
        const page = pageFor(request.query);
        page.log.apply(reply);
        return sendBytes(reply.type(JSON_TYPE), page.body);
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
          const s = normalizeSymbol(q.symbol);
          new NormalizationLog().add('symbol', q.symbol, s.symbol).apply(reply);
          symbol = s.symbol;
        }
        return sendBytes(reply.type(JSON_TYPE), predictions.outlook(symbol));
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
      async (_request, reply) => sendBytes(reply.type(JSON_TYPE), predictions.performance()),
    );
  };
}
