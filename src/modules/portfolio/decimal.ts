import { Decimal as DecimalJs } from 'decimal.js';

/**
 * Exact decimal arithmetic for quantities and costs. 80 significant digits: far more than any sum of 200
 * rows of NUMERIC values with up to 24 integer and 18 fractional digits needs, so sums are exact.
 */
export const Decimal = DecimalJs.clone({
  precision: 80,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -100,
  toExpPos: 100,
});
export type Decimal = DecimalJs;

const MAX_FRACTION_DIGITS = 18;
const MAX_INTEGER_DIGITS = 24;

const decimalPattern = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Parses a decimal written as text (`0.125`, `1e-8`, `1,5` is refused: a comma is ambiguous). Returns the
 * value or a message saying what is wrong. Thousands separators are not accepted.
 */
export function parseDecimal(text: string): Decimal | string {
  const trimmed = text.trim();
  if (!decimalPattern.test(trimmed)) return `${JSON.stringify(text)} is not a decimal number`;
  const value = new Decimal(trimmed);
  if (value.decimalPlaces() > MAX_FRACTION_DIGITS)
    return `has more than ${MAX_FRACTION_DIGITS} digits after the decimal point`;
  if (value.abs().gte(new Decimal(10).pow(MAX_INTEGER_DIGITS)))
    return `has more than ${MAX_INTEGER_DIGITS} digits before the decimal point`;
  return value;
}

/** The canonical text of a decimal: plain notation, no exponent, no trailing zeros (`1.50` → `1.5`). */
export const canonicalDecimal = (value: Decimal): string => value.toFixed();
