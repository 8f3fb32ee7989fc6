import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Scaled mode: this replica's sign of life in Redis, a key (`<prefix><id>`) that expires `ttlMs` after it was
 * last written and is written every `periodMs`. Connection slots name the replica that holds them, and a full
 * account's slots held by a replica whose key has expired (a crashed or frozen process) are released at the
 * next connection attempt: seconds after a crash, not the lease's three ping periods.
 *
 * Started by the first slot taken (a worker process, which holds none, writes nothing); the timer does not
 * keep the process alive.
 */
export interface ReplicaHeartbeat {
  readonly id: string;
  /** Prefix of every replica's key. */
  readonly keyPrefix: string;
  readonly ttlMs: number;
  /** Writes the key now and every `periodMs` from now on (idempotent). */
  start(): void;
  /** Stops writing (the key expires `ttlMs` later, as it would after a crash). */
  stop(): void;
}

export const REPLICA_HEARTBEAT_PERIOD_MS = 1_000;
export const REPLICA_HEARTBEAT_TTL_MS = 5_000;

export function replicaHeartbeat(
  redis: Redis,
  options: { id?: string; keyPrefix?: string; periodMs?: number; ttlMs?: number } = {},
): ReplicaHeartbeat {
  const id = options.id ?? randomUUID();
  const keyPrefix = options.keyPrefix ?? 'meridian:ws:replica:';
  const periodMs = options.periodMs ?? REPLICA_HEARTBEAT_PERIOD_MS;
  const ttlMs = options.ttlMs ?? REPLICA_HEARTBEAT_TTL_MS;
  let timer: NodeJS.Timeout | undefined;
  const beat = () => {
    redis.set(keyPrefix + id, '1', 'PX', ttlMs).catch(() => {
      // Redis unreachable: slot checks count locally meanwhile (redis.ts); the next beat writes it again.
    });
  };
  return {
    id,
    keyPrefix,
    ttlMs,
    start() {
      if (timer) return;
      beat();
      timer = setInterval(beat, periodMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
