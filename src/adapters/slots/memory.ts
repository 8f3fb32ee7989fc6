import type { ConnectionSlots } from '../../shared/connection-slots.ts';

/** Embedded mode: one process, a map. */
export function memorySlots(): ConnectionSlots {
  const held = new Map<string, Set<string>>();
  return {
    async acquire(accountId, connectionId, limit) {
      let set = held.get(accountId);
      const count = set?.size ?? 0;
      if (count >= limit) return { ok: false, held: count };
      if (!set) {
        set = new Set();
        held.set(accountId, set);
      }
      set.add(connectionId);
      return { ok: true, held: count };
    },
    async release(accountId, connectionId) {
      const set = held.get(accountId);
      if (!set) return;
      set.delete(connectionId);
      if (!set.size) held.delete(accountId);
    },
    async renew() {},
  };
}
