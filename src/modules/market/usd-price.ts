import { isDollar, splitSymbol, underlyingAsset } from '../identifiers/index.ts';
import { type Candle, floorTo } from './candles.ts';
import type { MarketEngine } from './engine.ts';

const DAY = 86_400_000;

/**
 * The tracked symbol an asset or symbol is priced by: itself (`ETHUSDT`), `<asset>USDT` (wrapped assets mapped
 * to their underlying: WETH→ETHUSDT), a pair spelled otherwise (`ETH/USDT`), `stable` for stablecoins, or
 * undefined when none is tracked.
 */
function resolveSymbol(symbols: readonly string[], assetOrSymbol: string): string | 'stable' | undefined {
  const text = assetOrSymbol.trim().toUpperCase();
  if (symbols.includes(text)) return text;
  const asset = underlyingAsset(text);
  if (isDollar(asset)) return 'stable';
  const symbol = `${asset}USDT`;
  if (symbols.includes(symbol)) return symbol;
  // A pair spelled otherwise (ETH/USDT).
  const { base } = splitSymbol(text.replace(/[^A-Z0-9]/g, ''));
  const fromPair = `${underlyingAsset(base)}USDT`;
  return symbols.includes(fromPair) ? fromPair : undefined;
}

/** `usdPrice` and `usdPriceNow` of the `MarketService` (see there). */
export function createUsdPrice(deps: {
  symbols: readonly string[];
  engine: MarketEngine;
  /** The newest stored (or computed) merged 1m bar opening at or before a time, older than the memory. */
  barAt: (symbol: string, atMs: number) => Promise<Candle | undefined>;
  /** The market's time. */
  now: () => number;
}) {
  const { symbols, engine } = deps;
  function usdPriceNow(assetOrSymbol: string): number | null {
    const s = resolveSymbol(symbols, assetOrSymbol);
    if (s === 'stable') return 1;
    if (!s) return null;
    return engine.snapshot(s)?.mid ?? engine.recentCandles(s, '1m', 1)[0]?.close ?? null;
  }
  async function usdPrice(assetOrSymbol: string, atMs?: number): Promise<number | null> {
    const s = resolveSymbol(symbols, assetOrSymbol);
    if (s === 'stable') return 1;
    if (!s) return null;
    const now = deps.now();
    if (atMs === undefined || atMs >= floorTo(now, 60_000)) return usdPriceNow(s);
    const series = engine.memorySeries(s, '1m');
    const inMemory = series?.first && series.first.openTime <= atMs ? series.at(atMs) : undefined;
    const bar = inMemory ?? (await deps.barAt(s, atMs));
    // A bar from long before the asked time is not a price at that time.
    if (!bar || atMs - bar.openTime > DAY) return null;
    return bar.close;
  }
  return { usdPrice, usdPriceNow };
}
