import type { Bus, BusHandler } from '../../shared/bus.ts';

/** In-process bus for embedded mode: handlers run synchronously in publish order. */
export function memoryBus(): Bus {
  const handlers = new Map<string, Set<BusHandler>>();
  return {
    async publish(topic, payload) {
      for (const handler of handlers.get(topic) ?? []) {
        try {
          handler(payload);
        } catch {
          // A faulty subscriber must not break the producer or other subscribers.
        }
      }
    },
    async subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set();
        handlers.set(topic, set);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
      };
    },
    async close() {
      handlers.clear();
    },
  };
}
