import type { Redis } from 'ioredis';
import type { Bus, BusHandler } from '../../shared/bus.ts';

/**
 * Redis pub/sub bus: one publisher connection, one subscriber connection per process; payloads are JSON.
 * Delivery is at-most-once (pub/sub semantics); durable work (alert deliveries) uses the database outbox.
 */
export function redisBus(publisher: Redis, subscriber: Redis, channelPrefix = 'meridian:bus:'): Bus {
  const handlers = new Map<string, Set<BusHandler>>();
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
        await subscriber.subscribe(channelPrefix + topic);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (!set.size) {
          handlers.delete(topic);
          await subscriber.unsubscribe(channelPrefix + topic).catch(() => {});
        }
      };
    },
    async close() {
      handlers.clear();
    },
  };
}
