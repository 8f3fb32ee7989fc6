/** The narrow view of a datapoint the hub needs; everything else is passed through untouched. */
export interface PushDatapoint {
  symbol: string;
  horizon: string;
  [field: string]: unknown;
}

/** Extracts datapoints from a refresh event: `{ data: [...] }` (the REST shape) or a bare array. */
export function datapointsOf(payload: unknown): PushDatapoint[] {
  const list = Array.isArray(payload)
    ? payload
    : payload && typeof payload === 'object' && Array.isArray((payload as { data?: unknown }).data)
      ? (payload as { data: unknown[] }).data
      : [];
  return list.filter(
    (d): d is PushDatapoint =>
      !!d &&
      typeof d === 'object' &&
      typeof (d as PushDatapoint).symbol === 'string' &&
      typeof (d as PushDatapoint).horizon === 'string',
  );
}
