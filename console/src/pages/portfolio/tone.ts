/** The colour class of a signed figure: 'up', 'down', or none for zero and missing values. */
export const tone = (value: number | string | null | undefined) => {
  const n = typeof value === 'string' ? Number(value) : value;
  return n === null || n === undefined || n === 0 || Number.isNaN(n) ? undefined : n > 0 ? 'up' : 'down';
};
