import createClient, { type Middleware } from 'openapi-fetch';
import { parseRateLimit, type RateLimitReading } from '../lib/rate-limit.ts';
import type { paths } from './schema.gen.ts';

/** An RFC 9457 problem document as the server sends it. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  requestId?: string;
  errors?: { pointer: string; message: string }[];
}

/** A failed API call: the message is the problem document's `detail`, in words a person can act on. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly problem: Problem;
  constructor(status: number, problem: Problem) {
    super(problem.detail || problem.title || `The server answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = problem.code;
    this.problem = problem;
  }
}

/** Codes that mean "the console session is gone": send the person to sign-in and back. */
const sessionEnded = new Set(['unauthenticated', 'session_required', 'invalid_token']);
export const isSessionEnded = (error: unknown) =>
  error instanceof ApiError && error.status === 401 && sessionEnded.has(error.code ?? 'unauthenticated');

type Listener<T> = (value: T) => void;
const usageListeners = new Set<Listener<RateLimitReading>>();
const sessionListeners = new Set<Listener<void>>();
let lastUsage: RateLimitReading | undefined;

export const usage = {
  current: () => lastUsage,
  subscribe(listener: Listener<RateLimitReading>) {
    usageListeners.add(listener);
    return () => {
      usageListeners.delete(listener);
    };
  },
};

/** Fires when an API call answers 401 while the console thought it was signed in. */
export function onSessionEnded(listener: Listener<void>) {
  sessionListeners.add(listener);
  return () => {
    sessionListeners.delete(listener);
  };
}

const observe: Middleware = {
  onResponse({ response, request }) {
    const reading = parseRateLimit(
      response.headers.get('ratelimit'),
      response.headers.get('ratelimit-policy'),
    );
    if (reading) {
      lastUsage = reading;
      for (const listener of usageListeners) listener(reading);
    }
    const path = new URL(request.url).pathname;
    // GET /api/account is how the console asks "am I signed in?": its 401 is an answer, not an expiry.
    if (response.status === 401 && path.startsWith('/api/') && path !== '/api/account')
      for (const listener of sessionListeners) listener();
    return response;
  },
};

/** The typed client: every path, parameter and body comes from the server's OpenAPI document. */
export const api = createClient<paths>({ baseUrl: globalThis.location?.origin ?? 'http://localhost' });
api.use(observe);

/** Turns an openapi-fetch result into its data, or throws an ApiError carrying the problem document. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw new ApiError(response.status, (error ?? {}) as Problem);
}
