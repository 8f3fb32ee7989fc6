import {
  type MarketSubscription,
  type PredictionsSubscription,
  type PushOptions,
  type SubscribeOptions,
  subscribeEvents,
  subscribeMarket,
  subscribePredictions,
} from './push.ts';
import { type ClientOptions, type Result, createRestClient, idempotencyKey } from './rest.ts';
import type { components, paths } from './schema.gen.ts';

export type { components, paths };
export type {
  AccountEvent,
  MarketItem,
  MarketSnapshot,
  MarketSubscription,
  PredictionDatapoint,
  PredictionsSubscription,
  PushStatus,
  SubscribeOptions,
} from './push.ts';
export { PushClosedError } from './push.ts';
export type { ClientOptions, Method, Problem, ProblemCode, RateLimit, Result } from './rest.ts';
export { MeridianProblemError, idempotencyKey, parseRateLimit } from './rest.ts';

type ImportBody = paths['/api/portfolio/import']['post']['requestBody'];

/** The batched outlook answer (`symbols=`): one entry per distinct symbol, an unsupported one as an error. */
export type OutlookBatch = components['schemas']['OutlookBatch'];
export type OutlookEntry = components['schemas']['OutlookEntry'];
export type OutlookEntryError = components['schemas']['OutlookEntryError'];
/** One outlook: bias, score, confidence, per-horizon view and drivers. */
export type Outlook = OutlookEntry['outlook'];
/** The most symbols one batched outlook request may name (the server answers 400 past it). */
export const MAX_OUTLOOK_SYMBOLS = 25;

export interface MeridianClientOptions extends ClientOptions {
  /** Reconnect, heartbeat and status options of the push channels. */
  push?: Omit<PushOptions, 'baseUrl' | 'token'>;
}

/**
 * The Meridian client: typed REST calls (`GET`, `POST`, `PATCH`, `DELETE` on the OpenAPI paths, each answer
 * with its rate-limit reading, problems thrown as `MeridianProblemError`), helpers for the routes that take an
 * `Idempotency-Key`, and the push channels as async iterators.
 */
export function createMeridianClient(options: MeridianClientOptions) {
  const rest = createRestClient(options);
  const push: PushOptions = { ...options.push, baseUrl: options.baseUrl, token: options.token };
  return {
    ...rest,
    portfolio: {
      /**
       * POST /api/portfolio/import with an Idempotency-Key (a new one unless given): the retries this client
       * makes (429) reuse it, so a row is never imported twice. Pass a CSV string or `{ rows }`.
       */
      import(
        body: string | NonNullable<ImportBody>['content']['application/json'],
        opts: { idempotencyKey?: string; dryRun?: boolean } = {},
      ) {
        const key = opts.idempotencyKey ?? idempotencyKey();
        const csv = typeof body === 'string';
        return rest.POST('/api/portfolio/import', {
          params: { header: { 'idempotency-key': key }, query: { dryRun: opts.dryRun } },
          body: body as never,
          ...(csv
            ? { bodySerializer: (text: unknown) => text as string, headers: { 'content-type': 'text/csv' } }
            : {}),
        });
      },
    },
    predictions: {
      /** GET /api/predictions/ai-outlook: one symbol's outlook, or the market-wide one without a symbol. */
      outlook(symbol?: string, opts: { strict?: boolean } = {}): Promise<Result<Outlook>> {
        return rest.GET('/api/predictions/ai-outlook', {
          params: { query: { symbol, strict: opts.strict } },
        }) as Promise<Result<Outlook>>;
      },
      /**
       * GET /api/predictions/ai-outlook?symbols=…: the outlook of each symbol (at most `MAX_OUTLOOK_SYMBOLS`) in
       * one request, in the order given, each entry with its provenance (`source`, `asOf`, `stale`,
       * `backfilling`); an unsupported symbol is an entry with `error` (with `strict`: a 400 for the request).
       */
      outlooks(symbols: readonly string[], opts: { strict?: boolean } = {}): Promise<Result<OutlookBatch>> {
        return rest.GET('/api/predictions/ai-outlook', {
          params: { query: { symbols: symbols.join(','), strict: opts.strict } },
        }) as Promise<Result<OutlookBatch>>;
      },
      /** `for await (const { data } of client.predictions.subscribe({ symbol: 'BTCUSDT', horizon: '1h' }))` */
      subscribe: (subscription: PredictionsSubscription = {}, opts?: SubscribeOptions) =>
        subscribePredictions(subscription, push, opts),
    },
    events: {
      /** Account events; resumes after the last one received on every reconnect. */
      subscribe: (start: { after?: string } = {}, opts?: SubscribeOptions) =>
        subscribeEvents(start, push, opts),
    },
    market: {
      /** `for await (const snapshot of client.market.subscribe({ symbols: ['BTCUSDT'] }))`: each snapshot. */
      subscribe: (subscription: MarketSubscription = {}, opts?: SubscribeOptions) =>
        subscribeMarket(subscription, push, opts),
    },
  };
}

export type MeridianClient = ReturnType<typeof createMeridianClient>;
