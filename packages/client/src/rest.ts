import createClient, { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
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

const param = (header: string, name: string) => {
  const match = new RegExp(`;\\s*${name}=(\\d+)`).exec(header);
  return match ? Number(match[1]) : undefined;
};

/** Reads `RateLimit: "account";r=118;t=1` and `RateLimit-Policy: "account";q=120;w=60`. */
export function parseRateLimit(headers: Headers, now = Date.now()): RateLimit | undefined {
  const value = headers.get('ratelimit');
  const policy = headers.get('ratelimit-policy');
  if (!value || !policy) return undefined;
  const remaining = param(value, 'r');
  const limit = param(policy, 'q');
  if (remaining === undefined || limit === undefined) return undefined;
  const resetSeconds = param(value, 't') ?? 0;
  return {
    limit,
    remaining,
    resetSeconds,
    reset: new Date(now + resetSeconds * 1000),
    windowSeconds: param(policy, 'w') ?? 60,
  };
}

/** An answer that was an RFC 9457 problem document, with its fields typed. */
export class MeridianProblemError extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly code: ProblemCode | undefined;
  readonly errors: { pointer: string; message: string }[] | undefined;
  readonly requestId: string | undefined;
  /** The whole document, extra fields included (e.g. `supported`, `limit`). */
  readonly problem: Partial<Problem> & Record<string, unknown>;
  readonly rateLimit: RateLimit | undefined;
  /** `Retry-After` in seconds (429, 503), when the server sent it. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, problem: Partial<Problem> & Record<string, unknown>, response: Response) {
    super(problem.detail ?? problem.title ?? `the server answered ${status}`);
    this.name = 'MeridianProblemError';
    this.status = status;
    this.type = problem.type ?? 'about:blank';
    this.title = problem.title ?? response.statusText;
    this.detail = problem.detail ?? '';
    this.code = problem.code;
    this.errors = problem.errors;
    this.requestId = problem.requestId ?? response.headers.get('x-request-id') ?? undefined;
    this.problem = problem;
    this.rateLimit = parseRateLimit(response.headers);
    const retryAfter = Number(response.headers.get('retry-after'));
    this.retryAfterSeconds =
      response.headers.has('retry-after') && Number.isFinite(retryAfter) ? retryAfter : undefined;
  }
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
  retryOn429?: boolean | { maxRetries?: number; maxWaitSeconds?: number };
  fetch?: typeof fetch;
}

type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];
type QueryOf<Init> = Init extends { params?: { query?: infer Q } } ? NonNullable<Q> : never;
/**
 * The init a call passed, with every query key the operation does not declare typed as an error marker: `I` is
 * inferred from the call, so TypeScript's excess-property check alone would let `{ horizn: '1h' }` through.
 */
type OnlyKnownQuery<I, Init> = I extends { params: { query: infer Q } }
  ? { params: { query: { [K in Exclude<keyof Q, keyof QueryOf<Init>>]: { unknownQueryParameter: K } } } }
  : unknown;
type Data<R> = R extends { data?: infer D } ? Exclude<D, undefined> : never;

/** One HTTP method, typed from the OpenAPI document: path, parameters, body and answer. */
export type Method<M extends HttpMethod> = <
  P extends PathsWithMethod<paths, M>,
  I extends MaybeOptionalInit<paths[P], M>,
>(
  url: P,
  ...init: InitParam<I & OnlyKnownQuery<I, MaybeOptionalInit<paths[P], M>>>
) => Promise<
  // biome-ignore lint/suspicious/noExplicitAny: the constraint openapi-fetch puts on an operation
  Result<Data<FetchResponse<Extract<paths[P][M], Record<string | number, any>>, I, `${string}/${string}`>>>
>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh Idempotency-Key: retries of the same request must reuse it, a new request needs a new one. */
export const idempotencyKey = (): string => globalThis.crypto.randomUUID();

export function createRestClient(options: ClientOptions) {
  const raw = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const retry = options.retryOn429 === true ? {} : options.retryOn429 || undefined;
  const maxRetries = retry?.maxRetries ?? 3;
  const maxWaitSeconds = retry?.maxWaitSeconds ?? 60;

  async function run(send: () => Promise<{ data?: unknown; error?: unknown; response: Response }>) {
    for (let attempt = 0; ; attempt++) {
      const { data, error, response } = await send();
      if (response.ok)
        return { data, rateLimit: parseRateLimit(response.headers), response } as Result<never>;
      const problem =
        error && typeof error === 'object'
          ? (error as Record<string, unknown>)
          : { detail: String(error ?? '') };
      const failure = new MeridianProblemError(response.status, problem, response);
      if (response.status !== 429 || !retry || attempt >= maxRetries) throw failure;
      const wait = failure.retryAfterSeconds ?? failure.rateLimit?.resetSeconds ?? 1;
      if (wait > maxWaitSeconds) throw failure;
      await sleep(Math.max(wait, 0) * 1000);
    }
  }

  const method = <M extends HttpMethod>(name: 'GET' | 'POST' | 'PATCH' | 'DELETE'): Method<M> =>
    // biome-ignore lint/suspicious/noExplicitAny: forwards the typed arguments unchanged to openapi-fetch
    ((url: any, ...init: any[]) => run(() => (raw[name] as any)(url, ...init))) as Method<M>;

  return {
    GET: method<'get'>('GET'),
    POST: method<'post'>('POST'),
    PATCH: method<'patch'>('PATCH'),
    DELETE: method<'delete'>('DELETE'),
    /** The underlying openapi-fetch client (no error translation, no retries). */
    raw,
  };
}
