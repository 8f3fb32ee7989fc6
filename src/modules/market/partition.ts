/**
 * Market partitions (MERIDIAN_MARKET_PARTITIONS; docs/operations.md, "Partitions"): which partition of `count`
 * a symbol belongs to. A stable hash of the canonical symbol — 32-bit FNV-1a of its UTF-16 code units — so the
 * assignment depends on the symbol alone, never on the list's order or length: adding a symbol moves no other.
 */
export function partitionOf(symbol: string, count: number): number {
  if (count <= 1) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < symbol.length; i++) {
    h ^= symbol.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % count;
}

/** The symbols of each partition, each list in the given (configured) order. */
export function partitionSymbols(symbols: readonly string[], count: number): string[][] {
  const out: string[][] = Array.from({ length: Math.max(1, count) }, () => []);
  for (const symbol of symbols) out[partitionOf(symbol, count)]!.push(symbol);
  return out;
}
