import { subscribeEvents, subscribePredictions, } from "./push.js";
import { createRestClient, idempotencyKey } from "./rest.js";
export { PushClosedError } from "./push.js";
export { MeridianProblemError, idempotencyKey, parseRateLimit } from "./rest.js";
/**
 * The Meridian client: typed REST calls (`GET`, `POST`, `PATCH`, `DELETE` on the OpenAPI paths, each answer
 * with its rate-limit reading, problems thrown as `MeridianProblemError`), helpers for the routes that take an
 * `Idempotency-Key`, and the push channels as async iterators.
 */
export function createMeridianClient(options) {
    const rest = createRestClient(options);
    const push = { ...options.push, baseUrl: options.baseUrl, token: options.token };
    return {
        ...rest,
        portfolio: {
            /**
             * POST /api/portfolio/import with an Idempotency-Key (a new one unless given): the retries this client
             * makes (429) reuse it, so a row is never imported twice. Pass a CSV string or `{ rows }`.
             */
            import(body, opts = {}) {
                const key = opts.idempotencyKey ?? idempotencyKey();
                const csv = typeof body === 'string';
                return rest.POST('/api/portfolio/import', {
                    params: { header: { 'idempotency-key': key }, query: { dryRun: opts.dryRun } },
                    body: body,
                    ...(csv
                        ? { bodySerializer: (text) => text, headers: { 'content-type': 'text/csv' } }
                        : {}),
                });
            },
        },
        predictions: {
            /** `for await (const { data } of client.predictions.subscribe({ symbol: 'BTCUSDT', horizon: '1h' }))` */
            subscribe: (subscription = {}) => subscribePredictions(subscription, push),
        },
        events: {
            /** Account events; resumes after the last one received on every reconnect. */
            subscribe: (start = {}) => subscribeEvents(start, push),
        },
    };
}
