/**
 * What every normalizer answers: the value to use, what the caller sent (exactly as received) and whether
 * the two differ (then the `Meridian-Normalized` header reports it). An ordinary fallback is an answer, not
 * an error; only input a caller asked to be strict about, or that is truly invalid, throws.
 */
export interface Normalized<T extends string> {
  value: T;
  requested: string | undefined;
  changed: boolean;
}

/** One request parameter the server normalized: what was asked for and what is used. */
export interface ParameterChange {
  param: string;
  requested: string | undefined;
  used: string;
}
