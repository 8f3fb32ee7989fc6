import type { ProblemDetail } from '../shared/errors.ts';

/**
 * A time query parameter: ISO 8601 or milliseconds since the epoch. A bad value is added to `problems` (so
 * every problem of a request is reported at once) and gives `undefined`.
 */
export function parseTime(raw: string, param: string, problems: ProblemDetail[]): number | undefined {
  const text = raw.trim();
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms) || ms > 8.64e15 || text === '' || !isCalendarDate(text)) {
    problems.push({
      pointer: `/query/${param}`,
      message: 'must be an ISO 8601 time or milliseconds since the epoch',
    });
    return undefined;
  }
  return ms;
}

/** Date.parse rolls 2021-02-30 over into March; a date that does not exist is an error instead. */
function isCalendarDate(text: string): boolean {
  const ymd = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!ymd) return true;
  const [year, month, day] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
