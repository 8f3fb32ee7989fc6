import { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import type { components, paths } from './schema.gen.ts';
export type Problem = components['schemas']['Problem'];
export type ProblemCode = components['schemas']['ProblemCode'];
/** The account's quota as the last answer reported it (`RateLimit` / `RateLimit-Policy` headers). */
export interface RateLimit {
    /** Requests allowed per window. */
    limit: number;
    /** Requests still available now. */
    remaining: number;
    /** When one more request becomes available. */
    reset: Date;
    /** Seconds until `reset`, as the server said. */
    resetSeconds: number;
    windowSeconds: number;
}
/** Reads `RateLimit: "account";r=118;t=1` and `RateLimit-Policy: "account";q=120;w=60`. */
export declare function parseRateLimit(headers: Headers, now?: number): RateLimit | undefined;
/** An answer that was an RFC 9457 problem document, with its fields typed. */
export declare class MeridianProblemError extends Error {
    readonly status: number;
    readonly type: string;
    readonly title: string;
    readonly detail: string;
    readonly code: ProblemCode | undefined;
    readonly errors: {
        pointer: string;
        message: string;
    }[] | undefined;
    readonly requestId: string | undefined;
    /** The whole document, extra fields included (e.g. `supported`, `limit`). */
    readonly problem: Partial<Problem> & Record<string, unknown>;
    readonly rateLimit: RateLimit | undefined;
    /** `Retry-After` in seconds (429, 503), when the server sent it. */
    readonly retryAfterSeconds: number | undefined;
    constructor(status: number, problem: Partial<Problem> & Record<string, unknown>, response: Response);
}
/** A successful answer: the typed body and the quota the server reported with it. */
export interface Result<T> {
    data: T;
    rateLimit: RateLimit | undefined;
    response: Response;
}
export interface ClientOptions {
    /** e.g. `https://meridian.example.com` */
    baseUrl: string;
    /** API token (`mrd_…`). */
    token?: string;
    /**
     * Opt-in: on 429 wait for `Retry-After` (else the rate-limit reset) and try again, up to `maxRetries`
     * times (default 3) and never waiting longer than `maxWaitSeconds` (default 60) at once.
     */
    retryOn429?: boolean | {
        maxRetries?: number;
        maxWaitSeconds?: number;
    };
    fetch?: typeof fetch;
}
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & {
    [key: string]: unknown;
})?] : [Init & {
    [key: string]: unknown;
}];
type Data<R> = R extends {
    data?: infer D;
} ? Exclude<D, undefined> : never;
/** One HTTP method, typed from the OpenAPI document: path, parameters, body and answer. */
export type Method<M extends HttpMethod> = <P extends PathsWithMethod<paths, M>, I extends MaybeOptionalInit<paths[P], M>>(url: P, ...init: InitParam<I>) => Promise<Result<Data<FetchResponse<Extract<paths[P][M], Record<string | number, any>>, I, `${string}/${string}`>>>>;
/** A fresh Idempotency-Key: retries of the same request must reuse it, a new request needs a new one. */
export declare const idempotencyKey: () => string;
export declare function createRestClient(options: ClientOptions): {
    GET: Method<"get">;
    POST: Method<"post">;
    PATCH: Method<"patch">;
    DELETE: Method<"delete">;
    /** The underlying openapi-fetch client (no error translation, no retries). */
    raw: import("openapi-fetch").Client<paths, `${string}/${string}`>;
};
export {};
