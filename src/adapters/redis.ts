import { Redis } from 'ioredis';

/**
 * A Redis client that fails fast instead of queueing while disconnected: callers decide what to do
 * (the limiter falls back locally, /readyz reports it), and no request ever stalls on a dead Redis.
 */
export function connectRedis(url: string, name: string): Redis {
  const client = new Redis(url, {
    connectionName: `meridian-${name}`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2_000,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  client.on('error', () => {
    // Connection errors are reported through readiness and metrics, not thrown at random places.
  });
  return client;
}

/** Waits until the client is ready or the timeout passes; returns whether it is ready. */
export async function waitForRedis(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    client.once('ready', onReady);
  });
}
