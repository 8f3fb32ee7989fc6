import type { Redis } from 'ioredis';
import type { Bus, BusHandler } from '../../shared/bus.ts';

interface BusLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Redis pub/sub bus: one publisher connection, one subscriber connection per process; payloads are JSON.
 * Delivery is at-most-once (pub/sub semantics); durable work (alert deliveries) uses the database outbox.
 */
export function redisBus(
  publisher: Redis,
  subscriber: Redis,
  options: { channelPrefix?: string; log?: BusLog } = {},
): Bus {
  const channelPrefix = options.channelPrefix ?? 'meridian:bus:';
  const handlers = new Map<string, Set<BusHandler>>();
  // Subscriptions are kept here and (re)made whenever the subscriber connection becomes ready: a process
  // started while Redis is down subscribes once it comes up, and one whose Redis restarted subscribes again.
  const subscribeAll = () => {
    const channels = [...handlers.keys()].map((topic) => channelPrefix + topic);
    if (!channels.length) return;
    subscriber.subscribe(...channels).then(
      () => options.log?.info({ channels: channels.length }, 'bus subscriptions established'),
      (error: Error) =>
        options.log?.warn({ error: error.message }, 'bus subscribe failed; retried on reconnect'),
    );
  };
  subscriber.on('ready', subscribeAll);
  subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) => {
    const topic = channel.toString().slice(channelPrefix.length);
    const set = handlers.get(topic);
    if (!set?.size) return;
    let payload: unknown;
    try {
      payload = JSON.parse(message.toString());
    } catch {
      return;
    }
    for (const handler of set) {
      try {
        handler(payload);
      } catch {
        // see memory bus
      }
    }
  });
  return {
    async publish(topic, payload) {
      await publisher.publish(channelPrefix + topic, JSON.stringify(payload));
    },
    async subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set();
        handlers.set(topic, set);
        if (subscriber.status === 'ready') {
          await subscriber.subscribe(channelPrefix + topic).catch((error: Error) => {
            options.log?.warn({ topic, error: error.message }, 'bus subscribe failed; retried on reconnect');
          });
        }
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (!set.size) {
          handlers.delete(topic);
          await subscriber.unsubscribe(channelPrefix + topic).catch(() => {
            // Not connected: the subscription is gone with the connection, and not renewed (no handler left).
          });
        }
      };
    },
    async close() {
      subscriber.off('ready', subscribeAll);
      handlers.clear();
    },
  };
}
