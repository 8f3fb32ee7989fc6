/**
 * How many connections a process may open to PostgreSQL: a token bucket of `burst` openings, refilled at
 * `perSecond`. Whatever goes wrong with the database (backends that stop answering, connections reset again
 * and again), the process never opens more than `burst + perSecond × t` connections in t seconds, so it cannot
 * fill the cluster's `max_connections` for every other database on it.
 */
export interface ConnectBudget {
  /** Takes one opening; false when none is left (the caller fails fast instead of connecting). */
  take(): boolean;
}

export function createConnectBudget(options: {
  burst: number;
  perSecond: number;
  now?: () => number;
}): ConnectBudget {
  const now = options.now ?? Date.now;
  let tokens = options.burst;
  let at = now();
  return {
    take() {
      const t = now();
      tokens = Math.min(options.burst, tokens + ((t - at) / 1000) * options.perSecond);
      at = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/** The error a refused opening fails with: a connection-class failure (answered 503 with Retry-After). */
export function connectBudgetExhausted(): Error {
  return Object.assign(
    new Error(
      'connection budget exhausted: too many PostgreSQL connections opened recently; not opening another',
    ),
    { code: 'ECONNBUDGET' },
  );
}
