import type { Bus } from '../../shared/bus.ts';
import type { WarnLog } from '../../shared/log-and-ignore.ts';

type Handler = (payload: unknown) => void;

/**
 * In-process bus for embedded mode: handlers run synchronously in publish order. Payloads are passed as they
 * are (no copy, no decoding): producer and consumers are checked against the same topic map by the compiler.
 */
export function memoryBus<M>(options: { log?: WarnLog } = {}): Bus<M> {
  const handlers = new Map<string, Set<Handler>>();
  return {
    async publish(topic, payload) {
      for (const handler of handlers.get(topic) ?? []) {
        try {
          handler(payload);
        } catch (error) {
          // A faulty subscriber must not break the producer or other subscribers; it is logged.
          options.log?.warn(
            { topic, error: error instanceof Error ? error.message : String(error) },
            'bus subscriber failed',
          );
        }
      }
    },
    async subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set();
        handlers.set(topic, set);
      }
      const h = handler as Handler;
      set.add(h);
      return async () => {
        set.delete(h);
      };
    },
    async close() {
      handlers.clear();
    },
  };
}
