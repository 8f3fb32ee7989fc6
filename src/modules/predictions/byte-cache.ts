/**
 * Response bodies serialized once and kept as bytes until the next change (a refresh, a load, a backfill or a
 * recorded gap clears the whole cache).
 */
export function createByteCache() {
  let cache = new Map<string, Buffer>();
  /** Small values derived with the bytes (e.g. the time of the rows a body summarizes), cleared with them. */
  let values = new Map<string, unknown>();
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
    /** The value under `key`, built (and kept) on the first ask since the last `clear`. */
    value<T>(key: string, build: () => T): T {
      if (values.has(key)) return values.get(key) as T;
      const v = build();
      values.set(key, v);
      return v;
    },
    clear(): void {
      cache = new Map();
      values = new Map();
    },
  };
}

export type ByteCache = ReturnType<typeof createByteCache>;
