import { validationError } from '../../shared/errors.ts';

/** Supported horizons of predictions. */
export const HORIZONS = ['15m', '1h', '6h'] as const;
export type Horizon = (typeof HORIZONS)[number];
/** Supported candle intervals of market history. */
export const INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type Interval = (typeof INTERVALS)[number];
/** Supported spacings of prediction datapoints. */
export const GRANULARITIES = ['1m', '5m', '15m', '1h'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const DEFAULT_HORIZON: Horizon = '1h';
const DEFAULT_INTERVAL: Interval = '1h';
const DEFAULT_GRANULARITY: Granularity = '15m';

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

export interface DurationNormalization<T extends string> {
  value: T;
  requested: string | undefined;
  changed: boolean;
}

function durationNormalizer<T extends string>(param: string, supported: readonly T[], fallback: T) {
  const secondsOf = supported.map((s) => parseDurationSeconds(s)!);
  return (
    input: string | undefined,
    options: { strict?: boolean; param?: string } = {},
  ): DurationNormalization<T> => {
    if (input === undefined || input.trim() === '') {
      return { value: fallback, requested: input, changed: input !== undefined };
    }
    if ((supported as readonly string[]).includes(input)) {
      return { value: input as T, requested: input, changed: false };
    }
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
