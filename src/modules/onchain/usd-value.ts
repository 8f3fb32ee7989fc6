/**
 * Exact token amounts: raw integer units (bigint) rendered as decimal strings. No floating point touches
 * an amount; only the USD value (a number rounded to cents) is derived with a float multiplication.
 */

/** `raw / 10^decimals` as a plain decimal string without trailing zeros: 1500000n, 6 → "1.5". */
export function formatUnits(raw: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0) throw new Error(`invalid decimals ${decimals}`);
  const negative = raw < 0n;
  const abs = negative ? -raw : raw;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  let fraction = decimals === 0 ? '' : (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  if (fraction) fraction = `.${fraction}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** The inverse of formatUnits; throws on more fractional digits than `decimals` or on malformed input. */
export function parseUnits(text: string, decimals: number): bigint {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal number: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  if (fraction.length > decimals) throw new Error(`${text} has more than ${decimals} decimals`);
  const raw = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  return sign ? -raw : raw;
}

/** USD value of an exact amount at a unit price, rounded to cents; undefined without a price. */
export function usdValue(amount: string, unitPriceUsd: number | undefined): number | undefined {
  if (unitPriceUsd === undefined || !Number.isFinite(unitPriceUsd)) return undefined;
  return Math.round(Number(amount) * unitPriceUsd * 100) / 100;
}
