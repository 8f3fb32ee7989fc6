import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.ts';
import {
  DEFAULT_SYMBOLS,
  HORIZONS,
  HORIZON_MS,
  INTERVALS,
  KNOWN_EXCHANGES,
  MAX_LIMIT,
  QUOTES,
  canonicalSymbols,
  clampLimit,
  createSupportedSymbols,
  durationMs,
  isDollar,
  normalizeAsset,
  parseDuration,
  underlyingAsset,
  normalizeExchange,
  normalizeGranularity,
  normalizeHorizon,
  normalizeInterval,
  normalizeQuote,
  normalizeSymbol,
  splitSymbol,
  toCcxtSymbol,
} from './index.ts';

const supported = DEFAULT_SYMBOLS;

describe('normalizeSymbol', () => {
  it.each([
    ['BTCUSDT', 'BTCUSDT', false],
    ['btcusdt', 'BTCUSDT', true],
    ['BTC/USDT', 'BTCUSDT', true],
    ['btc-usd', 'BTCUSDT', true],
    ['btc_usdc', 'BTCUSDT', true],
    ['BTC:USDT', 'BTCUSDT', true],
    ['BTC/USDT:USDT', 'BTCUSDT', true],
    ['ETH/USDC:USDC', 'ETHUSDT', true],
    [' sol usdt ', 'SOLUSDT', true],
    ['XBTUSD', 'BTCUSDT', true],
    ['xbt/usd', 'BTCUSDT', true],
    ['eth', 'ETHUSDT', true],
    ['DOGE', 'DOGEUSDT', true],
    ['bnbbusd', 'BNBUSDT', true],
    ['XRPFDUSD', 'XRPUSDT', true],
    ['adatusd', 'ADAUSDT', true],
    ['ETHUSD', 'ETHUSDT', true],
    ['LINKUSDT', 'BTCUSDT', true],
    ['ETHBTC', 'BTCUSDT', true],
    ['', 'BTCUSDT', true],
    ['!!!', 'BTCUSDT', true],
    ['a/b/c', 'BTCUSDT', true],
  ])('%j → %s (changed %s)', (input, symbol, changed) => {
    expect(normalizeSymbol(input, supported)).toEqual({ value: symbol, requested: input, changed });
  });

  it('strict=true rejects an unsupported symbol with the supported set', () => {
    try {
      normalizeSymbol('LINKUSDT', supported, { strict: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const e = error as AppError;
      expect(e.code).toBe('unsupported_symbol');
      expect(e.status).toBe(400);
      expect(e.extra?.supported).toEqual([...supported]);
      expect(e.errors?.[0]?.pointer).toBe('/query/symbol');
      expect(e.message).toContain('DOGEUSDT');
    }
  });

  it('strict=true still accepts spellings of a supported symbol', () => {
    expect(normalizeSymbol('eth-usd', supported, { strict: true }).value).toBe('ETHUSDT');
  });

  it('falls back to the first supported symbol when BTCUSDT is not configured', () => {
    expect(normalizeSymbol('nope', ['ETHUSDT', 'SOLUSDT']).value).toBe('ETHUSDT');
  });

  it('property: every output is supported, and normalizing the output changes nothing', () => {
    const piece = fc.constantFrom(
      'btc',
      'ETH',
      'xbt',
      'sol',
      'Doge',
      'link',
      'usd',
      'USDT',
      'busd',
      'fdusd',
      '',
    );
    const sep = fc.constantFrom('', '/', '-', '_', ':', ' ', '  ');
    const spelled = fc.tuple(piece, sep, piece).map(([a, s, b]) => `${a}${s}${b}`);
    fc.assert(
      fc.property(fc.oneof(spelled, fc.string({ maxLength: 20 })), (input) => {
        const first = normalizeSymbol(input, supported);
        expect(supported).toContain(first.value);
        const second = normalizeSymbol(first.value, supported);
        expect(second).toEqual({ value: first.value, requested: first.value, changed: false });
        expect(first.changed).toBe(first.value !== input);
      }),
      { numRuns: 2000 },
    );
  });

  it('splits canonical symbols and builds ccxt symbols', () => {
    expect(splitSymbol('DOGEUSDT')).toEqual({ base: 'DOGE', quote: 'USDT' });
    expect(toCcxtSymbol('BTCUSDT')).toBe('BTC/USDT');
    expect(toCcxtSymbol('BTCUSDT', 'USD')).toBe('BTC/USD');
  });
});

describe('normalizeHorizon', () => {
  it.each([
    [undefined, '1h', false],
    ['1h', '1h', false],
    ['15m', '15m', false],
    ['6h', '6h', false],
    ['15min', '15m', true],
    ['60m', '1h', true],
    ['1H', '1h', true],
    ['360m', '6h', true],
    ['900s', '15m', true],
    ['15', '15m', true],
    ['60', '1h', true],
    ['2h', '1h', true],
    ['30m', '15m', true], // exact tie by ratio (30/15 = 60/30) goes to the shorter
    ['31m', '1h', true],
    ['3h', '6h', true], // 3/1 > 6/3: nearer 6h by ratio
    ['4h', '6h', true],
    ['1m', '15m', true],
    ['1d', '6h', true],
    ['1 hour', '1h', true],
    ['h', '1h', true],
    ['soon', '1h', true],
    ['0m', '1h', true],
    ['-5m', '1h', true],
    ['', '1h', true],
  ])('%j → %s', (input, value, changed) => {
    expect(normalizeHorizon(input)).toEqual({ value, requested: input, changed });
  });

  it('strict turns text that is not a duration into a 400 naming the parameter', () => {
    try {
      normalizeHorizon('soon', { strict: true });
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).code).toBe('validation_failed');
      expect((error as AppError).errors).toEqual([
        { pointer: '/query/horizon', message: 'must be a duration, one of 15m, 1h, 6h' },
      ]);
    }
  });

  it('property: idempotent and always supported', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 8 }),
          fc.nat(100_000).map(String),
          fc.nat(500).map((n) => `${n}h`),
        ),
        (input) => {
          const first = normalizeHorizon(input);
          expect(HORIZONS).toContain(first.value);
          expect(normalizeHorizon(first.value)).toEqual({
            value: first.value,
            requested: first.value,
            changed: false,
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('normalizeInterval and normalizeGranularity', () => {
  it.each([
    [undefined, '1h'],
    ['1m', '1m'],
    ['1min', '1m'],
    ['5', '5m'],
    ['300s', '5m'],
    ['15M', '15m'],
    ['30m', '15m'],
    ['2h', '1h'],
    ['240', '4h'],
    ['4H', '4h'],
    ['1D', '1d'],
    ['24h', '1d'],
    ['1w', '1d'],
    ['1s', '1m'],
  ])('interval %j → %s', (input, value) => {
    expect(normalizeInterval(input).value).toBe(value);
  });

  it('granularity maps by ratio', () => {
    expect(normalizeGranularity('3m').value).toBe('5m'); // 3·3 > 1·5
    expect(normalizeGranularity('1d').value).toBe('1h');
    expect(normalizeGranularity('2m').value).toBe('1m');
    expect(normalizeGranularity(undefined).value).toBe('15m');
  });

  it('property: interval idempotent and supported', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (input) => {
        const first = normalizeInterval(input);
        expect(INTERVALS).toContain(first.value);
        expect(normalizeInterval(first.value).changed).toBe(false);
      }),
    );
  });
});

describe('normalizeExchange', () => {
  it.each([
    ['binance', 'binance', false],
    ['Binance', 'binance', true],
    ['OKX', 'okx', true],
    ['okex', 'okx', true],
    ['coinbase pro', 'coinbase', true],
    ['Coinbase-Pro', 'coinbase', true],
    ['kraken', 'kraken', false],
    ['bybit', 'bybit', false],
    [' huobi ', 'htx', true],
  ])('%j → %s', (input, value, changed) => {
    expect(normalizeExchange(input)).toEqual({ value, requested: input, changed, known: true });
  });

  it('answers an unknown exchange in plain form, without throwing', () => {
    expect(normalizeExchange(' Mt  Gox ')).toEqual({
      value: 'mt gox',
      requested: ' Mt  Gox ',
      changed: true,
      known: false,
    });
    expect(normalizeExchange('Mt Gox', { extra: ['mt gox'] })).toMatchObject({
      value: 'mt gox',
      known: true,
    });
  });

  it('strict rejects an unknown exchange listing the known ones (and the extra ones, sorted)', () => {
    try {
      normalizeExchange('mtgox', { strict: true, extra: ['zebra'] });
      expect.unreachable();
    } catch (error) {
      const e = error as AppError;
      expect(e.extra?.known).toEqual([...KNOWN_EXCHANGES, 'zebra'].sort());
    }
    try {
      normalizeExchange('mtgox', { strict: true });
      expect.unreachable();
    } catch (error) {
      const e = error as AppError;
      expect(e.code).toBe('unknown_exchange');
      expect(e.status).toBe(400);
      expect(e.extra?.known).toContain('okx');
      expect(e.errors?.[0]?.pointer).toBe('/query/exchange');
    }
  });
});

describe('the supported symbol set', () => {
  it('is made from configured spellings, canonical and de-duplicated, and normalizes over itself', () => {
    const symbols = createSupportedSymbols(canonicalSymbols(['eth/usd', 'ETHUSDT', 'sol-usdc', '???']));
    expect(symbols.list).toEqual(['ETHUSDT', 'SOLUSDT']);
    expect(symbols.fallback).toBe('ETHUSDT');
    expect(symbols.has('SOLUSDT')).toBe(true);
    expect(symbols.has('BTCUSDT')).toBe(false);
    expect(symbols.normalize('btc')).toEqual({ value: 'ETHUSDT', requested: 'btc', changed: true });
    expect(() => symbols.normalize('btc', { strict: true })).toThrow(/not supported/);
    expect(Object.isFrozen(symbols.list)).toBe(true);
  });

  it('must not be empty', () => {
    expect(() => canonicalSymbols(['!!!'])).toThrow(/must not be empty/);
    expect(() => createSupportedSymbols([])).toThrow(/must not be empty/);
  });
});

describe('normalizeQuote', () => {
  it('folds the dollar spellings into USDT, keeps the other quotes, any case', () => {
    expect(normalizeQuote('USDT')).toEqual({ value: 'USDT', requested: 'USDT', changed: false });
    expect(normalizeQuote('usd')).toEqual({ value: 'USDT', requested: 'usd', changed: true });
    expect(normalizeQuote(' fdusd ').value).toBe('USDT');
    expect(normalizeQuote('Btc')).toEqual({ value: 'BTC', requested: 'Btc', changed: true });
    expect(QUOTES).toEqual(['USDT', 'BTC', 'ETH', 'EUR', 'BNB']);
    // Every quote a canonical symbol can end in is one normalizeQuote answers with.
    for (const q of QUOTES) expect(splitSymbol(`ABC${q}`).quote).toBe(q);
  });

  it('refuses anything else with a 400 naming the parameter, never a fallback', () => {
    for (const bad of ['XYZ', '', 'US DT', 'USDTT']) {
      let error: unknown;
      try {
        normalizeQuote(bad, { param: 'quote' });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('validation_failed');
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).errors?.[0]?.pointer).toBe('/query/quote');
    }
  });
});

describe('durations, limits and assets', () => {
  it('horizon milliseconds agree with the labels', () => {
    for (const h of HORIZONS) expect(HORIZON_MS[h]).toBe(durationMs(h));
  });

  it('clamps a page to MAX_LIMIT', () => {
    expect(clampLimit(undefined)).toBe(MAX_LIMIT);
    expect(clampLimit(10)).toBe(10);
    expect(clampLimit(1000)).toBe(MAX_LIMIT);
  });

  it('parses token lifetimes', () => {
    expect(parseDuration('30d')).toBe(30 * 86_400_000);
    expect(parseDuration('15min')).toBeUndefined();
  });

  it('one stablecoin and one wrapped-asset table', () => {
    expect(isDollar('USD')).toBe(true);
    expect(isDollar('PYUSD')).toBe(true);
    expect(isDollar('BTC')).toBe(false);
    expect(underlyingAsset('WETH')).toBe('ETH');
    expect(underlyingAsset('ETH')).toBe('ETH');
    expect(normalizeAsset(' Bitcoin ')).toEqual({ value: 'BTC', requested: ' Bitcoin ', changed: true });
    expect(normalizeAsset('nothing')).toBeUndefined();
  });
});
