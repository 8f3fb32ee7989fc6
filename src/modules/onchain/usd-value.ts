/**
 * The USD value of an exact token amount: the only float in a flow. Amounts themselves are raw integer units
 * (bigint) rendered as decimal strings with viem's `formatUnits`.
 */
export function usdValue(amount: string, unitPriceUsd: number | undefined): number | undefined {
  if (unitPriceUsd === undefined || !Number.isFinite(unitPriceUsd)) return undefined;
  return Math.round(Number(amount) * unitPriceUsd * 100) / 100;
}
