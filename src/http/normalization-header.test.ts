import { describe, expect, it } from 'vitest';
import { NormalizationLog, normalizationHeaderValue } from './normalization-header.ts';

describe('normalization header', () => {
  it('lists each changed parameter as requested → used', () => {
    expect(
      normalizationHeaderValue([
        { param: 'symbol', requested: 'btc-usd', used: 'BTCUSDT' },
        { param: 'horizon', requested: '2h', used: '1h' },
        { param: 'limit', requested: undefined, used: '96' },
        { param: 'granularity', requested: '15m', used: '15m' },
      ]),
    ).toBe('symbol=btc-usd->BTCUSDT; horizon=2h->1h');
  });

  it('escapes characters that would break the header', () => {
    const value = new NormalizationLog().add('symbol', 'btc usd;\r\nx,é', 'BTCUSDT').value();
    expect(value).toBe('symbol=btc%20usd%3B%0D%0Ax%2C%C3%A9->BTCUSDT');
  });

  it('sets nothing when nothing changed', () => {
    const headers: Record<string, string> = {};
    new NormalizationLog().add('symbol', 'BTCUSDT', 'BTCUSDT').apply({
      header: (n, v) => {
        headers[n] = v;
      },
    });
    expect(headers).toEqual({});
  });
});
