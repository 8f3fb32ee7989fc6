import { validationError } from '../../shared/errors.ts';
import type { Normalized } from './types.ts';

/** Supported horizons of predictions, shortest first. */
export const HORIZONS = ['15m', '1h', '6h'] as const;
export type Horizon = (typeof HORIZONS)[number];
/** Supported candle intervals of market history, shortest first. */
export const INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type Interval = (typeof INTERVALS)[number];
/** Supported spacings of prediction datapoints, shortest first. */
export const GRANULARITIES = ['1m', '5m', '15m', '1h'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const DEFAULT_HORIZON: Horizon = '1h';
const DEFAULT_INTERVAL: Interval = '1h';
const DEFAULT_GRANULARITY: Granularity = '15m';

/** Milliseconds of each horizon. */
export const HORIZON_MS: Readonly<Record<Horizon, number>> = {
  '15m': 15 * 60_000,
  '1h': 60 * 60_000,
  '6h': 6 * 60 * 60_000,
};
/** Milliseconds of each candle interval. */
export const INTERVAL_MS: Readonly<Record<Interval, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

export const isHorizon = (value: string): value is Horizon => (HORIZONS as readonly string[]).includes(value);
export const isInterval = (value: string): value is Interval =>
  (INTERVALS as readonly string[]).includes(value);

/** The most prediction datapoints one page holds (a day of 15-minute points); a larger `limit` is clamped. */
export const MAX_LIMIT = 96;

/** A requested page size clamped to `MAX_LIMIT`; absent → `MAX_LIMIT`. */
export function clampLimit(limit: number | undefined): number {
  return Math.min(limit ?? MAX_LIMIT, MAX_LIMIT);
}

const UNIT_SECONDS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
  w: 604_800,
  wk: 604_800,
  week: 604_800,
  weeks: 604_800,
};

/**
 * Parses a duration such as `15m`, `15min`, `1H`, `360m`, `900s`, `4 hours`, `1d` or bare minutes (`60`)
 * into seconds. Any case. Returns `undefined` for text that is not a positive duration.
 */
function parseDurationSeconds(input: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)?\s*([a-z]+)?\s*$/i.exec(input);
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined;
  const amount = match[1] === undefined ? 1 : Number(match[1]);
  const unit = match[2]?.toLowerCase();
  const factor = unit === undefined ? 60 : UNIT_SECONDS[unit];
  if (factor === undefined || !Number.isFinite(amount) || amount <= 0) return undefined;
  const seconds = amount * factor;
  return seconds >= 1 && seconds <= 10 * 365 * 86_400 ? seconds : undefined;
}

/** Milliseconds of a supported duration label (`1m` → 60 000). */
export function durationMs(label: string): number {
  const seconds = parseDurationSeconds(label);
  if (seconds === undefined) throw new Error(`not a duration: ${label}`);
  return seconds * 1000;
}

/** Picks the supported value nearest by ratio; ties go to the shorter. `supported` ascending. */
function nearestByRatio<T extends string>(seconds: number, supported: readonly T[], secondsOf: number[]): T {
  const first = secondsOf[0]!;
  if (seconds <= first) return supported[0]!;
  for (let i = 1; i < supported.length; i++) {
    const a = secondsOf[i - 1]!;
    const b = secondsOf[i]!;
    if (seconds <= b) {
      // Compare seconds/a with b/seconds without logarithms: exact for integer seconds.
      return seconds * seconds <= a * b ? supported[i - 1]! : supported[i]!;
    }
  }
  return supported[supported.length - 1]!;
}

function durationNormalizer<T extends string>(param: string, supported: readonly T[], fallback: T) {
  const secondsOf = supported.map((s) => parseDurationSeconds(s)!);
  return (input: string | undefined, options: { strict?: boolean; param?: string } = {}): Normalized<T> => {
    if (input === undefined || input.trim() === '') {
      return { value: fallback, requested: input, changed: input !== undefined };
    }
    const exact = supported.find((s) => s === input);
    if (exact !== undefined) return { value: exact, requested: input, changed: false };
    const seconds = parseDurationSeconds(input);
    if (seconds === undefined) {
      if (options.strict) {
        const name = options.param ?? param;
        throw validationError([
          { pointer: `/query/${name}`, message: `must be a duration, one of ${supported.join(', ')}` },
        ]);
      }
      return { value: fallback, requested: input, changed: true };
    }
    const value = nearestByRatio(seconds, supported, secondsOf);
    return { value, requested: input, changed: value !== input };
  };
}

/**
 * Horizons `15m`, `1h`, `6h`: accepts `15min`, `60m`, `1H`, `360m`, `900s`, bare minutes; any other
 * duration maps to the nearest supported horizon by ratio (ties to the shorter); absent → `1h`;
 * text that is no duration → `1h` (or 400 with `strict`).
 */
export const normalizeHorizon = durationNormalizer('horizon', HORIZONS, DEFAULT_HORIZON);
/** Candle intervals `1m` `5m` `15m` `1h` `4h` `1d`, same rules as horizons; default `1h`. */
export const normalizeInterval = durationNormalizer('interval', INTERVALS, DEFAULT_INTERVAL);
/** Prediction spacing `1m` `5m` `15m` `1h`, same rules; default `15m`. */
export const normalizeGranularity = durationNormalizer('granularity', GRANULARITIES, DEFAULT_GRANULARITY);

const EXPIRY_UNITS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * A lifetime such as `90s`, `15m`, `12h`, `30d`, `2w` (token `expiresIn`) in milliseconds; `undefined` when the
 * text is not such a duration. Stricter than `parseDurationSeconds`: a number and a one-letter unit.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})\s*([smhdw])$/i.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * EXPIRY_UNITS[match[2]!.toLowerCase()]!;
}
