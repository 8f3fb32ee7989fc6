import createClient from 'openapi-fetch';
const param = (header, name) => {
    const match = new RegExp(`;\\s*${name}=(\\d+)`).exec(header);
    return match ? Number(match[1]) : undefined;
};
/** Reads `RateLimit: "account";r=118;t=1` and `RateLimit-Policy: "account";q=120;w=60`. */
export function parseRateLimit(headers, now = Date.now()) {
    const value = headers.get('ratelimit');
    const policy = headers.get('ratelimit-policy');
    if (!value || !policy)
        return undefined;
    const remaining = param(value, 'r');
    const limit = param(policy, 'q');
    if (remaining === undefined || limit === undefined)
        return undefined;
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
    status;
    type;
    title;
    detail;
    code;
    errors;
    requestId;
    /** The whole document, extra fields included (e.g. `supported`, `limit`). */
    problem;
    rateLimit;
    /** `Retry-After` in seconds (429, 503), when the server sent it. */
    retryAfterSeconds;
    constructor(status, problem, response) {
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
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A fresh Idempotency-Key: retries of the same request must reuse it, a new request needs a new one. */
export const idempotencyKey = () => globalThis.crypto.randomUUID();
export function createRestClient(options) {
    const raw = createClient({
        baseUrl: options.baseUrl.replace(/\/+$/, ''),
        headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
        ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const retry = options.retryOn429 === true ? {} : options.retryOn429 || undefined;
    const maxRetries = retry?.maxRetries ?? 3;
    const maxWaitSeconds = retry?.maxWaitSeconds ?? 60;
    async function run(send) {
        for (let attempt = 0;; attempt++) {
            const { data, error, response } = await send();
            if (response.ok)
                return { data, rateLimit: parseRateLimit(response.headers), response };
            const problem = error && typeof error === 'object'
                ? error
                : { detail: String(error ?? '') };
            const failure = new MeridianProblemError(response.status, problem, response);
            if (response.status !== 429 || !retry || attempt >= maxRetries)
                throw failure;
            const wait = failure.retryAfterSeconds ?? failure.rateLimit?.resetSeconds ?? 1;
            if (wait > maxWaitSeconds)
                throw failure;
            await sleep(Math.max(wait, 0) * 1000);
        }
    }
    const method = (name) => 
    // biome-ignore lint/suspicious/noExplicitAny: forwards the typed arguments unchanged to openapi-fetch
    ((url, ...init) => run(() => raw[name](url, ...init)));
    return {
        GET: method('GET'),
        POST: method('POST'),
        PATCH: method('PATCH'),
        DELETE: method('DELETE'),
        /** The underlying openapi-fetch client (no error translation, no retries). */
        raw,
    };
}
