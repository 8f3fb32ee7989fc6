/** One component's health as /readyz reports it (docs/operations.md#readiness). */
export interface ComponentHealth {
  status: 'ok' | 'degraded' | 'down';
  /** Why it is not ok, in words an operator can act on. */
  reason?: string;
  /** A state every start passes through (the model warming up): logged as information, not as a warning. */
  expected?: boolean;
  /** Figures behind the status (ages in seconds, lags in blocks), where there are any. */
  details?: Record<string, number | string | null>;
}

/**
 * The readiness of a process: `unready` (503) only when it cannot serve at all — storage down, or its
 * start-up work (model warm-up) not finished; `degraded` (200) when a component is sick but answers still
 * go out (marked stale where their data is); `ready` otherwise.
 */
export interface ReadinessReport {
  status: 'ready' | 'degraded' | 'unready';
  components: Record<string, ComponentHealth>;
  /** Earlier shape, kept for existing probes: component → null when ok, else the reason. */
  checks: Record<string, string | null>;
}

export function summarize(components: Record<string, ComponentHealth>, startingUp: boolean): ReadinessReport {
  const checks: Record<string, string | null> = {};
  let degraded = false;
  for (const [name, c] of Object.entries(components)) {
    checks[name] = c.status === 'ok' ? null : (c.reason ?? c.status);
    if (c.status !== 'ok') degraded = true;
  }
  const unready = startingUp || components.storage?.status === 'down';
  return { status: unready ? 'unready' : degraded ? 'degraded' : 'ready', components, checks };
}
