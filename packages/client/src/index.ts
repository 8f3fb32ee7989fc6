import {
  type MarketSubscription,
  type PredictionsSubscription,
  type PushOptions,
  type SubscribeOptions,
  subscribeEvents,
  subscribeMarket,
  subscribePredictions,
} from './push.ts';
import { type ClientOptions, createRestClient, idempotencyKey } from './rest.ts';
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
