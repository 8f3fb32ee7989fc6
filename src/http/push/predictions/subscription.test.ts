import { describe, expect, it } from 'vitest';
import type { ParameterChange } from '../../../modules/symbols/index.ts';
import { Subscription, normalizeSelection, rawListsFromQuery } from './subscription.ts';

const pairs = (s: Subscription) => s.describe().pairs.map((p) => `${p.symbol} ${p.horizon}`);

describe('push subscriptions', () => {
  it('starts as everything; the first subscribe replaces it, later ones add', () => {
    const s = Subscription.everything();
    expect(s.all).toBe(true);
    expect(s.key).toBe('*');
    s.subscribe({ symbols: ['BTCUSDT'], horizons: ['1h'] });
    expect(pairs(s)).toEqual(['BTCUSDT 1h']);
    s.subscribe({ symbols: ['ETHUSDT'], horizons: ['6h'] });
    // Pairs, not a cross product: no ETH 1h, no BTC 6h.
    expect(pairs(s)).toEqual(['BTCUSDT 1h', 'ETHUSDT 6h']);
    const match = s.matcher();
    expect(match('BTCUSDT', '1h')).toBe(true);
    expect(match('BTCUSDT', '6h')).toBe(false);
  });

  it('unsubscribe from everything leaves the rest; subscribing to all again is the shared default', () => {
    const s = Subscription.everything();
    s.unsubscribe({ horizons: ['15m', '6h'] });
    expect(s.all).toBe(false);
    expect(pairs(s).every((p) => p.endsWith(' 1h'))).toBe(true);
    s.subscribe({});
    expect(s.all).toBe(true);
    expect(s.key).toBe('*');
  });

  it('equal subscriptions share a key regardless of order', () => {
    const a = Subscription.fromSelection({ symbols: ['ETHUSDT', 'BTCUSDT'], horizons: ['1h'] });
    const b = Subscription.fromSelection({ symbols: ['BTCUSDT', 'ETHUSDT'], horizons: ['1h'] });
    expect(a.key).toBe(b.key);
    expect(a.key).not.toBe('*');
  });

  it('normalizes like REST and reports what changed; unsupported symbols are errors only when strict', () => {
    const changes: ParameterChange[] = [];
    expect(normalizeSelection(['btc-usd', 'XBT/USDT', 'ETHUSDT'], ['60m', '900s'], changes)).toEqual({
      symbols: ['BTCUSDT', 'ETHUSDT'],
      horizons: ['1h', '15m'],
    });
    expect(changes.map((c) => `${c.requested}->${c.used}`)).toEqual([
      'btc-usd->BTCUSDT',
      'XBT/USDT->BTCUSDT',
      '60m->1h',
      '900s->15m',
    ]);
    const fallback: ParameterChange[] = [];
    expect(normalizeSelection(['NOPEUSDT'], ['2h'], fallback)).toEqual({
      symbols: ['BTCUSDT'],
      horizons: ['1h'],
    });
    expect(fallback.map((c) => `${c.requested}->${c.used}`)).toEqual(['NOPEUSDT->BTCUSDT', '2h->1h']);
    expect(() => normalizeSelection(['NOPEUSDT'], undefined, [], true)).toThrow(/not supported/);
  });

  it('reads comma-separated and repeated query parameters; empty means all', () => {
    expect(rawListsFromQuery({ symbol: ['btc,eth', 'sol'], horizon: '1h' })).toEqual({
      symbols: ['btc', 'eth', 'sol'],
      horizons: ['1h'],
    });
    expect(rawListsFromQuery({ symbol: '' })).toEqual({ symbols: undefined, horizons: undefined });
  });
});
