/**
 * Response bodies serialized once and kept as bytes until the next change (a refresh, a load, a backfill or a
 * recorded gap clears the whole cache).
 */
export function createByteCache() {
  let cache = new Map<string, Buffer>();
  return {
    /** The bytes under `key`, built (and kept) on the first ask since the last `clear`. */
    bytes(key: string, build: () => unknown): Buffer {
      let b = cache.get(key);
      if (!b) {
        b = Buffer.from(JSON.stringify(build()));
        cache.set(key, b);
      }
      return b;
    },
    clear(): void {
      cache = new Map();
    },
  };
}

export type ByteCache = ReturnType<typeof createByteCache>;
