/** Time as a port so tests and replays can drive it. Milliseconds since the Unix epoch. */
export interface Clock {
  now(): number;
  /**
   * Clock milliseconds per wall-clock millisecond, when not 1: a replay at speed 60 plays a recorded minute
   * each second. Windows set in wall time (staleness, refresh periods) are this many times longer when
   * measured on this clock.
   */
  readonly rate?: number;
}

/** A wall-time window measured on `clock` (see `Clock.rate`). */
export const onClock = (clock: Clock, wallMs: number): number => wallMs * (clock.rate ?? 1);

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export function manualClock(
  start = Date.UTC(2026, 0, 1),
): Clock & { set(ms: number): void; advance(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
