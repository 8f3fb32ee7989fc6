// Display formatters. Every function takes the value and returns text; missing values (null/undefined or
// not finite) render as an em dash so tables never show "NaN" or "null".

const dash = '—';
const isNumber = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** A price with precision that fits its size: 97,234.50 · 3,412.07 · 0.6123 · 0.00001234. */
export function formatPrice(value: number | null | undefined): string {
  if (!isNumber(value)) return dash;
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 2 : abs >= 1 ? 2 : abs >= 0.01 ? 4 : 8;
  const min = abs >= 1 ? 2 : digits;
  return value.toLocaleString('en-US', { minimumFractionDigits: min, maximumFractionDigits: digits });
}

/** A signed percentage: +1.23 % / −0.40 % (true minus sign). `value` is already in percent. */
export function formatPercent(value: number | null | undefined, digits = 2, signed = true): string {
  if (!isNumber(value)) return dash;
  const text = Math.abs(value).toFixed(digits);
  const zero = Number(text) === 0;
  const sign = !signed || zero ? '' : value > 0 ? '+' : '−';
  return `${sign}${text} %`;
}

/** A ratio in [0, 1] as a percentage without sign: 0.6342 → "63.4 %". */
export function formatRatio(value: number | null | undefined, digits = 1): string {
  if (!isNumber(value)) return dash;
  return `${(value * 100).toFixed(digits)} %`;
}

/** Basis points: 3.2 → "3.2 bps", 12.46 → "12 bps" (one decimal below 10). */
export function formatBps(value: number | null | undefined): string {
  if (!isNumber(value)) return dash;
  const digits = Math.abs(value) < 10 ? 1 : 0;
  return `${value.toFixed(digits)} bps`;
}

/** US dollars, compact above ten thousand: $1.23M, $45.6K, $980.12. */
export function formatUsd(value: number | null | undefined, { signed = false } = {}): string {
  if (!isNumber(value)) return dash;
  const abs = Math.abs(value);
  const sign = value < 0 ? '−' : signed && value > 0 ? '+' : '';
  let body: string;
  if (abs >= 1e9) body = `${(abs / 1e9).toFixed(2)}B`;
  else if (abs >= 1e6) body = `${(abs / 1e6).toFixed(2)}M`;
  else if (abs >= 1e4) body = `${(abs / 1e3).toFixed(1)}K`;
  else body = abs.toFixed(2);
  return `${sign}$${body}`;
}

/** An exact decimal amount string (never parsed to a float) grouped for reading: "12345.678" → "12,345.678". */
export function formatAmount(amount: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(amount);
  if (!match) return amount;
  const [, sign, whole, fraction = ''] = match;
  const trimmed = fraction.slice(0, 8).replace(/0+$/, '');
  return `${sign}${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${trimmed === '.' ? '' : trimmed}`;
}

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "5 minutes ago", "in 3 days", "now" — relative to `now` (ms), so tests pass a fixed clock. */
export function formatRelative(time: string | number | null | undefined, now: number): string {
  if (time === null || time === undefined) return dash;
  const at = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(at)) return dash;
  const diff = at - now;
  if (Math.abs(diff) < 10_000) return 'now';
  for (const [unit, ms] of units) {
    if (Math.abs(diff) >= ms || unit === 'second') return relative.format(Math.round(diff / ms), unit);
  }
  return dash;
}

/** "2026-11-23 18:45 UTC" — absolute, unambiguous, for titles and tables. */
export function formatDateTime(time: string | number | null | undefined): string {
  if (time === null || time === undefined) return dash;
  const at = new Date(typeof time === 'number' ? time : Date.parse(time));
  if (Number.isNaN(at.getTime())) return dash;
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "BTCUSDT" → "BTC / USDT" for headings. */
export function formatSymbol(symbol: string): string {
  const match = /^(.+?)(USDT|USDC|USD|BTC|ETH)$/.exec(symbol);
  return match ? `${match[1]} / ${match[2]}` : symbol;
}

/** "0x1234…abcd" for addresses and hashes. */
export function shortHash(value: string, keep = 6): string {
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-4)}`;
}

/**
 * An exact USD decimal string from the server ("12345.6", "-80.10") as dollars and cents, grouped, never
 * parsed to a float: "$12,345.60", "−$80.10", "+$5.00" when signed. null (no price, no cost) is a dash.
 */
export function formatUsdAmount(value: string | null | undefined, { signed = false } = {}): string {
  if (value === null || value === undefined) return dash;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const [, minus, whole, fraction = ''] = match;
  const cents = fraction.padEnd(2, '0').slice(0, 2);
  const zero = /^0+$/.test(whole!) && /^0*$/.test(fraction);
  const sign = zero ? '' : minus ? '−' : signed ? '+' : '';
  return `${sign}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** A latency in milliseconds: "85 ms", "1.24 s". */
export function formatLatency(ms: number | null | undefined): string {
  if (!isNumber(ms)) return dash;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
