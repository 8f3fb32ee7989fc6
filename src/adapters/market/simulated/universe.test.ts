import { describe, expect, it } from 'vitest';
import { simulatedSource } from './index.ts';
import { MAX_SIMULATED_UNIVERSE, profileOf, rankOf, simulatedUniverse } from './universe.ts';
import {
  DEFAULT_SYMBOLS,
  canonicalCandidate,
  canonicalSymbols,
  createSupportedSymbols,
  splitSymbol,
} from '../../../modules/identifiers/index.ts';
import type { Candle } from '../../../modules/market/index.ts';

const T = Date.UTC(2026, 2, 10, 12, 0);
const DAY = 86_400_000;

describe('the simulated universe (MERIDIAN_SYMBOLS=top:N)', () => {
  const universe = simulatedUniverse(200);
  const symbols = universe.map((m) => m.symbol);

  it('top:200 is 200 distinct canonical BASEUSDT symbols that normalize to themselves', () => {
    expect(new Set(symbols).size).toBe(200);
    expect(canonicalSymbols(symbols)).toEqual(symbols);
    const supported = createSupportedSymbols(symbols);
    for (const symbol of symbols) {
      const { base, quote } = splitSymbol(symbol);
      expect(quote, symbol).toBe('USDT');
      expect(base.length, symbol).toBeGreaterThanOrEqual(2);
      expect(supported.normalize(symbol, { strict: true }), symbol).toEqual({
        value: symbol,
        requested: symbol,
        changed: false,
      });
      // Other spellings find it too.
      expect(supported.normalize(`${base.toLowerCase()}/usd`, { strict: true }).value).toBe(symbol);
      expect(supported.normalize(`${base}-USDC`, { strict: true }).value).toBe(symbol);
    }
    // Real names first, synthetic names past the built-in list.
    expect(symbols.slice(0, 11)).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'SOLUSDT',
      'XRPUSDT',
      'DOGEUSDT',
      'BNBUSDT',
      'ADAUSDT',
      'TRXUSDT',
      'TONUSDT',
      'AVAXUSDT',
      'LINKUSDT',
    ]);
    expect(symbols.at(-1)).toBe('SIM0200USDT');
    expect(universe.map((m) => m.rank)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    for (const m of universe) expect(rankOf(m.symbol)).toBe(m.rank);
  });

  it('the synthetic names are still valid and round-trip to the largest universe', () => {
    const all = simulatedUniverse(MAX_SIMULATED_UNIVERSE).map((m) => m.symbol);
    expect(new Set(all).size).toBe(MAX_SIMULATED_UNIVERSE);
    expect(all.filter((symbol) => canonicalCandidate(symbol) !== symbol)).toEqual([]);
    expect(() => simulatedUniverse(0)).toThrow(RangeError);
    expect(() => simulatedUniverse(MAX_SIMULATED_UNIVERSE + 1)).toThrow(RangeError);
  });

  it('the seven default symbols keep their hand-written profiles', () => {
    expect(profileOf('BTCUSDT')).toEqual({ anchor: 64_000, dailyVol: 0.028, beta: 1, dailyQuoteVolume: 3e9 });
    expect(profileOf('DOGEUSDT')).toEqual({ anchor: 0.15, dailyVol: 0.06, beta: 0.7, dailyQuoteVolume: 4e8 });
    const byRank = new Map(universe.map((m) => [m.symbol, m.profile]));
    for (const symbol of DEFAULT_SYMBOLS) expect(byRank.get(symbol)).toEqual(profileOf(symbol));
    // A symbol outside the universe keeps the model's old fallback.
    expect(profileOf('FOOUSDT')).toEqual({ anchor: 10, dailyVol: 0.05, beta: 0.7, dailyQuoteVolume: 5e7 });
  });

  it('profiles are distinct and plausible: volume falls with rank as a power law, volatility rises as it falls', () => {
    const profiles = universe.map((m) => m.profile);
    const volumes = profiles.map((p) => p.dailyQuoteVolume);
    for (let i = 1; i < volumes.length; i++) expect(volumes[i]!, symbols[i]).toBeLessThan(volumes[i - 1]!);
    expect(volumes[0]).toBe(3e9);
    expect(simulatedUniverse(500)[499]!.profile.dailyQuoteVolume).toBeCloseTo(1e6, -3);
    // A power law: log volume falls about linearly in log rank past the seven.
    const slope = (a: number, b: number) => Math.log(volumes[b - 1]! / volumes[a - 1]!) / Math.log(b / a);
    expect(slope(10, 20)).toBeCloseTo(slope(100, 200), 1);
    expect(new Set(profiles.map((p) => JSON.stringify(p))).size).toBe(200);
    for (const p of profiles.slice(7)) {
      expect(p.dailyVol).toBeGreaterThanOrEqual(0.025);
      expect(p.dailyVol).toBeLessThanOrEqual(0.12);
      expect(p.beta).toBeGreaterThanOrEqual(0.4);
      expect(p.beta).toBeLessThanOrEqual(0.9);
      expect(p.anchor).toBeGreaterThanOrEqual(0.00001);
      expect(p.anchor).toBeLessThanOrEqual(60_000);
    }
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const top = profiles.slice(7, 40);
    const tail = profiles.slice(150);
    expect(mean(tail.map((p) => p.dailyVol))).toBeGreaterThan(mean(top.map((p) => p.dailyVol)) + 0.02);
    expect(mean(tail.map((p) => p.beta))).toBeLessThan(mean(top.map((p) => p.beta)));
    // Anchors spread over orders of magnitude.
    const logs = profiles.map((p) => Math.log10(p.anchor));
    expect(Math.max(...logs) - Math.min(...logs)).toBeGreaterThan(7);
    expect(profiles.filter((p) => p.anchor < 0.01).length).toBeGreaterThan(10);
    expect(profiles.filter((p) => p.anchor > 1000).length).toBeGreaterThan(10);
  });

  it('is a pure function of the count: the same list every time, a prefix of a larger one', () => {
    expect(simulatedUniverse(200)).toEqual(universe);
    expect(simulatedUniverse(50)).toEqual(universe.slice(0, 50));
  });

  it('prices are deterministic per seed, different across seeds, at each market’s own level and depth', async () => {
    const pick = ['BTCUSDT', 'TRXUSDT', 'SIM0100USDT', 'SIM0200USDT'];
    const history = async (seed: number) => {
      const source = simulatedSource({ symbols: symbols, seed, clock: { now: () => T } });
      const out: Record<string, Candle[]> = {};
      for (const symbol of pick) {
        out[symbol] = [];
        for await (const chunk of source.backfill('binance', symbol, T - DAY, T)) out[symbol].push(...chunk);
      }
      return out;
    };
    const a = await history(42);
    expect(await history(42)).toEqual(a);
    const b = await history(43);
    for (const symbol of pick) {
      expect(a[symbol]).toHaveLength(1440);
      expect(a[symbol]![720]!.close).not.toBe(b[symbol]![720]!.close);
      // Near its anchor (mean reversion over 2024–2026 keeps it within a factor of a few).
      const ratio = a[symbol]![720]!.close / profileOf(symbol).anchor;
      expect(ratio, symbol).toBeGreaterThan(0.1);
      expect(ratio, symbol).toBeLessThan(10);
    }
    // Quote volume follows the profile: binance has 45 % of a day's volume.
    for (const symbol of pick) {
      const day = a[symbol]!.reduce((s, c) => s + c.quoteVolume, 0);
      expect(day / (profileOf(symbol).dailyQuoteVolume * 0.45), symbol).toBeGreaterThan(0.5);
      expect(day / (profileOf(symbol).dailyQuoteVolume * 0.45), symbol).toBeLessThan(2);
    }
    // Book depth scales with volume: the rank-200 book is far thinner than BTC's.
    const source = simulatedSource({
      symbols: ['BTCUSDT', 'SIM0200USDT'],
      seed: 42,
      clock: { now: () => T },
    });
    const depth: Record<string, number> = {};
    source.tickAt(T, (e) => {
      if (e.kind === 'book_snapshot' && e.venue === 'binance')
        depth[e.symbol] = e.bids.reduce((s, [price, size]) => s + price * size, 0);
    });
    expect(depth.SIM0200USDT! / depth.BTCUSDT!).toBeLessThan(0.01);
    expect(depth.SIM0200USDT).toBeGreaterThan(0);
  });
});
