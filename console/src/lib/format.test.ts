import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatBps,
  formatDateTime,
  formatLatency,
  formatUsdAmount,
  formatPercent,
  formatPrice,
  formatRatio,
  formatRelative,
  formatSymbol,
  formatUsd,
  shortHash,
} from './format.ts';

describe('formatters', () => {
  it('prices keep precision that fits their size', () => {
    expect(formatPrice(97234.5)).toBe('97,234.50');
    expect(formatPrice(3.4)).toBe('3.40');
    expect(formatPrice(0.61234)).toBe('0.6123');
    expect(formatPrice(0.000012345)).toBe('0.00001235');
    expect(formatPrice(null)).toBe('—');
    expect(formatPrice(Number.NaN)).toBe('—');
  });

  it('percentages are signed with a true minus and never show −0', () => {
    expect(formatPercent(1.234)).toBe('+1.23 %');
    expect(formatPercent(-0.4)).toBe('−0.40 %');
    expect(formatPercent(-0.001)).toBe('0.00 %');
    expect(formatPercent(2, 1, false)).toBe('2.0 %');
    expect(formatRatio(0.6342)).toBe('63.4 %');
    expect(formatRatio(undefined)).toBe('—');
  });

  it('basis points use one decimal below ten', () => {
    expect(formatBps(3.24)).toBe('3.2 bps');
    expect(formatBps(12.46)).toBe('12 bps');
    expect(formatBps(null)).toBe('—');
  });

  it('dollars are compact and signed on request', () => {
    expect(formatUsd(1_234_567)).toBe('$1.23M');
    expect(formatUsd(45_600)).toBe('$45.6K');
    expect(formatUsd(980.123)).toBe('$980.12');
    expect(formatUsd(-2_500_000_000)).toBe('−$2.50B');
    expect(formatUsd(12, { signed: true })).toBe('+$12.00');
  });

  it('exact amounts are grouped without going through a float', () => {
    expect(formatAmount('12345678.123456789012')).toBe('12,345,678.1234567');
    expect(formatAmount('-1000')).toBe('-1,000');
    expect(formatAmount('0.5000000000')).toBe('0.5');
    expect(formatAmount('not a number')).toBe('not a number');
  });

  it('relative times are relative to the clock given', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(formatRelative('2026-01-01T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelative('2026-01-04T12:00:00Z', now)).toBe('in 3 days');
    expect(formatRelative(now - 3000, now)).toBe('now');
    expect(formatRelative('2025-12-31T12:00:00Z', now)).toBe('yesterday');
    expect(formatRelative(now + 90 * 86_400_000 - 1000, now)).toBe('in 3 months');
    expect(formatRelative(null, now)).toBe('—');
    expect(formatRelative('garbage', now)).toBe('—');
  });

  it('absolute times, symbols and hashes', () => {
    expect(formatDateTime('2026-11-23T18:45:12.345Z')).toBe('2026-11-23 18:45 UTC');
    expect(formatSymbol('BTCUSDT')).toBe('BTC / USDT');
    expect(formatSymbol('WEIRD')).toBe('WEIRD');
    expect(shortHash('0x1234567890abcdef1234')).toBe('0x1234…1234');
  });
});

describe('formatUsdAmount', () => {
  it('shows exact decimal strings as dollars and cents without float rounding', () => {
    expect(formatUsdAmount('12345678901234.5')).toBe('$12,345,678,901,234.50');
    expect(formatUsdAmount('0.1')).toBe('$0.10');
    expect(formatUsdAmount('-80.10')).toBe('−$80.10');
    expect(formatUsdAmount('5', { signed: true })).toBe('+$5.00');
    expect(formatUsdAmount('-0.00', { signed: true })).toBe('$0.00');
  });
  it('renders null (no price, no cost) as a dash, never $0', () => {
    expect(formatUsdAmount(null)).toBe('—');
    expect(formatUsdAmount(undefined)).toBe('—');
  });
});

describe('formatLatency', () => {
  it('uses ms below a second and seconds above', () => {
    expect(formatLatency(84.6)).toBe('85 ms');
    expect(formatLatency(1240)).toBe('1.24 s');
    expect(formatLatency(null)).toBe('—');
  });
});
