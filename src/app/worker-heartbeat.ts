import { Gauge } from 'prom-client';
import type { Metrics } from '../observability/metrics.ts';
import type { Logger } from '../observability/logger.ts';
import { type Bus, isRecord, type TopicDecoders, topics } from '../shared/bus.ts';
import type { Clock } from '../shared/clock.ts';
import type { Job } from '../shared/leadership.ts';
import { failureStreak } from '../shared/failure-streak.ts';
import { logAndIgnore } from '../shared/log-and-ignore.ts';
import { periodicJob } from '../shared/periodic-job.ts';
import type { ComponentHealth } from '../shared/readiness.ts';

/** What a worker says on the bus every beat. */
export interface WorkerBeat {
  /** Wall time of sending (ms): the receiver's clock minus this is the bus lag (plus host skew). */
  sentAt: number;
  pid: number;
  host: string;
}

/** The heartbeat's topic (this file owns its payload, as a module owns its topics). */
export interface WorkerTopics {
  [topics.workerHeartbeat]: WorkerBeat;
}

export const workerTopicDecoders: TopicDecoders<WorkerTopics> = {
  [topics.workerHeartbeat]: (raw) => {
    if (!isRecord(raw) || typeof raw.sentAt !== 'number' || !Number.isFinite(raw.sentAt)) return undefined;
    if (typeof raw.pid !== 'number' || typeof raw.host !== 'string') return undefined;
    return { sentAt: raw.sentAt, pid: raw.pid, host: raw.host };
  },
};

const HEARTBEAT_MS = 5_000;
/** Beats a replica may miss before it reports the worker missing (and its answers as stale). */
const MISSED_BEATS = 3;

/** Every process that runs the background jobs (role all or worker) beats on the bus. */
export function heartbeatJob(deps: {
  bus: Bus<WorkerTopics>;
  clock: Clock;
  host: string;
  logger: Logger;
}): Job {
  const streak = failureStreak({
    failed: logAndIgnore(deps.logger, 'worker heartbeat not published (bus unreachable)'),
    recovered: () => deps.logger.info({}, 'worker heartbeat published again'),
  });
  const beat = () =>
    deps.bus
      .publish(topics.workerHeartbeat, {
        sentAt: deps.clock.now(),
        pid: process.pid,
        host: deps.host,
      } satisfies WorkerBeat)
      .then(streak.succeeded, streak.failed);
  // Failures are reported by the streak (one line when the bus goes, one when it is back), not per beat.
  const beating = periodicJob({ name: 'worker-heartbeat', everyMs: HEARTBEAT_MS, run: beat });
  return {
    name: beating.name,
    async start() {
      await beating.runNow();
      beating.start();
    },
    stop: () => beating.stop(),
  };
}

/**
 * An API replica's view of the workers: the last beat heard, exported as `meridian_worker_heartbeat_age_seconds`
 * and `meridian_bus_lag_seconds`, and the `worker` component of /readyz — degraded (with the reason) once
 * `MISSED_BEATS` beats are missing, which is when this replica's market data and forecasts stop being renewed.
 */
export function heartbeatMonitor(deps: {
  bus: Bus<WorkerTopics>;
  clock: Clock;
  metrics: Pick<Metrics, 'registry'>;
  intervalMs?: number;
}) {
  const intervalMs = deps.intervalMs ?? HEARTBEAT_MS;
  let lastHeard: number | undefined;
  let lastLagMs = 0;
  let startedAt: number | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  new Gauge({
    name: 'meridian_worker_heartbeat_age_seconds',
    help: 'API replicas: seconds since the last worker heartbeat on the bus (absent before the first)',
    registers: [deps.metrics.registry],
    collect() {
      if (lastHeard !== undefined) this.set((deps.clock.now() - lastHeard) / 1000);
    },
  });
  new Gauge({
    name: 'meridian_bus_lag_seconds',
    help: 'API replicas: delay of the last worker heartbeat on the bus (receive minus send time; includes host clock skew)',
    registers: [deps.metrics.registry],
    collect() {
      if (lastHeard !== undefined) this.set(lastLagMs / 1000);
    },
  });

  const job: Job = {
    name: 'worker-heartbeat-monitor',
    async start() {
      startedAt = deps.clock.now();
      unsubscribe = await deps.bus.subscribe(topics.workerHeartbeat, (beat) => {
        lastHeard = deps.clock.now();
        lastLagMs = Math.max(0, lastHeard - beat.sentAt);
      });
    },
    async stop() {
      await unsubscribe?.();
      unsubscribe = undefined;
    },
  };

  /** The `worker` component of /readyz (undefined until the monitor runs). */
  function health(): ComponentHealth | undefined {
    if (startedAt === undefined) return undefined;
    const now = deps.clock.now();
    const windowMs = MISSED_BEATS * intervalMs;
    if (lastHeard === undefined) {
      // A replica that just started gives the worker one window to be heard.
      if (now - startedAt <= windowMs) return { status: 'ok', details: { heartbeatAgeSeconds: null } };
      return {
        status: 'degraded',
        reason: `no worker heartbeat since this replica started ${Math.round((now - startedAt) / 1000)} s ago: market data and forecasts are not renewed`,
      };
    }
    const age = now - lastHeard;
    const details = { heartbeatAgeSeconds: Math.round(age / 1000), busLagMs: lastLagMs };
    if (age <= windowMs) return { status: 'ok', details };
    return {
      status: 'degraded',
      reason: `no worker heartbeat for ${Math.round(age / 1000)} s (worker down or bus cut): market data and forecasts are not renewed`,
      details,
    };
  }

  return { job, health };
}
