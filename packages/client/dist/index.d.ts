import { type PredictionsSubscription, type PushOptions } from './push.ts';
import { type ClientOptions } from './rest.ts';
import type { components, paths } from './schema.gen.ts';
export type { components, paths };
export type { AccountEvent, PredictionDatapoint, PushStatus, PredictionsSubscription } from './push.ts';
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
export declare function createMeridianClient(options: MeridianClientOptions): {
    portfolio: {
        /**
         * POST /api/portfolio/import with an Idempotency-Key (a new one unless given): the retries this client
         * makes (429) reuse it, so a row is never imported twice. Pass a CSV string or `{ rows }`.
         */
        import(body: string | NonNullable<ImportBody>["content"]["application/json"], opts?: {
            idempotencyKey?: string;
            dryRun?: boolean;
        }): Promise<import("./rest.ts").Result<{
            dryRun: boolean;
            format: "json" | "csv";
            ignoredColumns?: string[] | undefined;
            importId: string | null;
            inserted: number;
            rows: number;
            unchanged: number;
            updated: number;
        }>>;
    };
    predictions: {
        /** `for await (const { data } of client.predictions.subscribe({ symbol: 'BTCUSDT', horizon: '1h' }))` */
        subscribe: (subscription?: PredictionsSubscription) => AsyncIterableIterator<{
            data: import("./push.ts").PredictionDatapoint[];
        }>;
    };
    events: {
        /** Account events; resumes after the last one received on every reconnect. */
        subscribe: (start?: {
            after?: string;
        }) => AsyncIterableIterator<{
            data: {
                rule: {
                    id: string;
                    name: string;
                    type: string;
                } & {
                    [key: string]: unknown;
                };
                trigger: {
                    firedAt: string;
                    id: string;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
            id: string;
            test: boolean;
            timestamp: string;
            type: "alert.triggered" | "onchain.flow";
            version: 1;
        }>;
    };
    GET: import("./rest.ts").Method<"get">;
    POST: import("./rest.ts").Method<"post">;
    PATCH: import("./rest.ts").Method<"patch">;
    DELETE: import("./rest.ts").Method<"delete">;
    raw: import("openapi-fetch").Client<paths, `${string}/${string}`>;
};
export type MeridianClient = ReturnType<typeof createMeridianClient>;
