import {
  createMeridianClient,
  MeridianProblemError,
  parseRateLimit,
  type RateLimit,
  type Result,
} from '@meridian/client';
import { type DataKind, dataKindOf } from '../lib/data-source.ts';
import { type QuotaExceeded, quotaExceeded } from '../lib/quota.ts';

export { MeridianProblemError };

/** The account's quota as one answer reported it, with the requests already used in the window. */
export interface RateLimitReading extends RateLimit {
  used: number;
}

/** Codes that mean "the console session is gone": send the person to sign-in and back. */
const sessionEnded = new Set(['unauthenticated', 'session_required', 'invalid_token']);
export const isSessionEnded = (error: unknown) =>
  error instanceof MeridianProblemError &&
  error.status === 401 &&
  sessionEnded.has(error.code ?? 'unauthenticated');

/** The shared quota is spent: a pause, not a sign-out. */
export const isRateLimited = (error: unknown): error is MeridianProblemError =>
  error instanceof MeridianProblemError && error.status === 429;

type Listener<T> = (value: T) => void;
const usageListeners = new Set<Listener<RateLimitReading>>();
const quotaListeners = new Set<Listener<QuotaExceeded>>();
let lastQuotaExceeded: QuotaExceeded | undefined;
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

/** The latest 429 on the shared quota: the console shows it until requests are allowed again. */
export const quota = {
  exceeded: () => lastQuotaExceeded,
  subscribe(listener: Listener<QuotaExceeded>) {
    quotaListeners.add(listener);
    return () => {
      quotaListeners.delete(listener);
    };
  },
};

const sourceListeners = new Set<Listener<void>>();
const sources: Partial<Record<DataKind, string>> = {};

/** Where market data and on-chain flows come from, as the latest answers said (`Meridian-Source`). */
export const dataSources = {
  current: (kind: DataKind) => sources[kind],
  subscribe(listener: Listener<void>) {
    sourceListeners.add(listener);
    return () => {
      sourceListeners.delete(listener);
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

const origin = globalThis.location?.origin ?? 'http://localhost';

/**
 * The SDK's client on the console's own origin: the session cookie authenticates every call (no token), and
 * fetch is looked up per call so tests can stand in for it.
 */
export const api = createMeridianClient({
  baseUrl: origin,
  fetch: (input, init) => globalThis.fetch(input, init),
});

api.raw.use({
  onResponse({ response, request }) {
    const reading = parseRateLimit(response.headers);
    if (reading) {
      lastUsage = { ...reading, used: Math.max(0, reading.limit - reading.remaining) };
      for (const listener of usageListeners) listener(lastUsage);
    }
    if (response.status === 429) {
      const error = new MeridianProblemError(429, {}, response);
      lastQuotaExceeded = quotaExceeded(error);
      for (const listener of quotaListeners) listener(lastQuotaExceeded);
    }
    const path = new URL(request.url).pathname;
    const kind = dataKindOf(path);
    const source = response.headers.get('meridian-source');
    if (kind && source && sources[kind] !== source) {
      sources[kind] = source;
      for (const listener of sourceListeners) listener();
    }
    // GET /api/account is how the console asks "am I signed in?": its 401 is an answer, not an expiry.
    if (response.status === 401 && path.startsWith('/api/') && path !== '/api/account')
      for (const listener of sessionListeners) listener();
    return response;
  },
});

/** The body of a successful answer (problems are thrown by the client as `MeridianProblemError`). */
export const unwrap = <T>(call: Promise<Result<T>>): Promise<T> => call.then((result) => result.data);
