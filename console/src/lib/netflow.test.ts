import { describe, expect, it } from 'vitest';
import type { Flow } from '../api/types.ts';
import { bucketFor, netflowByExchange } from './netflow.ts';

const flow = (exchange: string, direction: Flow['direction'], usdValue: number | null, iso: string): Flow =>
  ({ exchange, direction, usdValue, timestamp: Date.parse(iso) }) as Flow;

describe('netflowByExchange', () => {
  it('accumulates deposits minus withdrawals per exchange by hour, largest net first', () => {
    const series = netflowByExchange(
      [
        flow('binance', 'deposit', 100, '2026-01-01T10:05:00Z'),
        flow('binance', 'withdrawal', 30, '2026-01-01T10:45:00Z'),
        flow('binance', 'deposit', 50, '2026-01-01T11:10:00Z'),
        flow('kraken', 'withdrawal', 500, '2026-01-01T09:00:00Z'),
        flow('kraken', 'internal', 900, '2026-01-01T09:30:00Z'),
        flow('kraken', 'deposit', null, '2026-01-01T09:40:00Z'),
      ],
      3600,
    );
    expect(series.map((s) => s.exchange)).toEqual(['kraken', 'binance']);
    expect(series[1]!.points).toEqual([
      { time: Date.parse('2026-01-01T10:00:00Z') / 1000, value: 70 },
      { time: Date.parse('2026-01-01T11:00:00Z') / 1000, value: 120 },
    ]);
    expect(series[0]!.totalUsd).toBe(-500);
  });

  it('picks buckets that keep a recent span readable', () => {
    const at = (minutes: number) => ({ timestamp: minutes * 60_000 });
    expect(bucketFor([at(0), at(90)])).toBe(60);
    expect(bucketFor([at(0), at(600)])).toBe(300);
    expect(bucketFor([at(0), at(1800)])).toBe(900);
    expect(bucketFor([at(0), at(60 * 24 * 7)])).toBe(3600);
    expect(bucketFor([at(5)])).toBe(3600);
  });
});
