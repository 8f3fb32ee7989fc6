import { type SupportedSymbols, normalizeQuote, splitSymbol } from '../modules/identifiers/index.ts';
import type { NormalizationLog } from './normalization-header.ts';

/** What a market answer was asked to cover, as received (`symbols` already split on commas). */
export interface MarketSelectionRequest {
  symbols?: readonly string[];
  quote?: string;
  strict?: boolean;
}

/**
 * Which symbols a market answer covers — `GET /api/market-data` and the `/market` stream choose them alike:
 * `symbols` in any accepted spelling (normalized like every symbol parameter: an unsupported one falls back to
 * the default symbol, or is a 400 with `strict`; duplicates dropped; in the order given), and `quote` (only
 * the symbols quoted in it; an unknown quote is a 400). Neither: every supported symbol, in configured order —
 * then the answer is the supported list itself (`list === supported.list`), which callers may test.
 * Every change is noted in `log` (the `Meridian-Normalized` header).
 */
export function createMarketSelector(supported: SupportedSymbols) {
  // The symbols of each quote, in configured order: made once. A quote every symbol has selects the
  // supported list itself (the whole-universe answer).
  const byQuote = new Map<string, readonly string[]>();
  for (const quote of new Set(supported.list.map((s) => splitSymbol(s).quote))) {
    const list = supported.list.filter((s) => splitSymbol(s).quote === quote);
    byQuote.set(quote, list.length === supported.list.length ? supported.list : list);
  }
  const position = new Map(supported.list.map((s, i) => [s, i]));

  return {
    select(request: MarketSelectionRequest, log: NormalizationLog): readonly string[] {
      let quote: string | undefined;
      if (request.quote !== undefined) {
        const n = normalizeQuote(request.quote, { param: 'quote' });
        log.add('quote', request.quote, n.value);
        quote = n.value;
      }
      let list: readonly string[] = supported.list;
      if (request.symbols !== undefined) {
        const chosen = new Set<string>();
        for (const raw of request.symbols) {
          const text = raw.trim();
          if (text === '') continue;
          const n = supported.normalize(text, { strict: request.strict, param: 'symbols' });
          log.add('symbols', text, n.value);
          chosen.add(n.value);
        }
        // Only separators (`symbols=,`) is the same as no list.
        if (chosen.size > 0) list = [...chosen];
      }
      if (quote === undefined) return list;
      if (list === supported.list) return byQuote.get(quote) ?? [];
      return list.filter((s) => splitSymbol(s).quote === quote);
    },
    /** The same symbols in configured order (equal sets compare equal). */
    inConfiguredOrder(list: readonly string[]): string[] {
      return [...list].sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0));
    },
  };
}

export type MarketSelector = ReturnType<typeof createMarketSelector>;
