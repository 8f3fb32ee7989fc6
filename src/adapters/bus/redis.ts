import type { Redis } from 'ioredis';
import type { Bus, TopicDecoders } from '../../shared/bus.ts';

interface BusLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

type Handler = (payload: unknown) => void;

/** A refused message is logged at most this often per topic (with the count refused since). */
const REFUSED_LOG_INTERVAL_MS = 60_000;

/**
 * Redis pub/sub bus: one publisher connection, one subscriber connection per process; payloads are JSON.
 * Delivery is at-most-once (pub/sub semantics); durable work (alert deliveries) uses the database outbox.
 *
 * What arrives from Redis was written by another process (another version, a test, anyone with access), so
 * each message is decoded by its topic's decoder before any handler sees it: a message that is not JSON or
 * whose shape is wrong is dropped and logged (at most once a minute per topic, with a count).
 */
export function redisBus<M>(
  publisher: Redis,
  subscriber: Redis,
  options: { decoders: TopicDecoders<M>; channelPrefix?: string; log?: BusLog },
): Bus<M> {
  const channelPrefix = options.channelPrefix ?? 'meridian:bus:';
  const decoders = options.decoders as Record<string, ((raw: unknown) => unknown) | undefined>;
  const handlers = new Map<string, Set<Handler>>();
  const refused = new Map<string, { count: number; loggedAt: number }>();
  const refuse = (topic: string, reason: string) => {
    const r = refused.get(topic) ?? { count: 0, loggedAt: Number.NEGATIVE_INFINITY };
    r.count++;
    refused.set(topic, r);
    const now = Date.now();
    if (now - r.loggedAt < REFUSED_LOG_INTERVAL_MS) return;
    options.log?.warn({ topic, reason, refused: r.count }, 'bus message dropped: not a valid payload');
    r.loggedAt = now;
    r.count = 0;
  };
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
    let raw: unknown;
    try {
      raw = JSON.parse(message.toString());
    } catch {
      refuse(topic, 'not JSON');
      return;
    }
    const payload = decoders[topic]?.(raw);
    if (payload === undefined) {
      refuse(topic, 'wrong shape');
      return;
    }
    for (const handler of set) {
      try {
        handler(payload);
      } catch (error) {
        // A faulty subscriber must not break the others; it is logged.
        options.log?.warn(
          { topic, error: error instanceof Error ? error.message : String(error) },
          'bus subscriber failed',
        );
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
      const h = handler as Handler;
      set.add(h);
      return async () => {
        set.delete(h);
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
