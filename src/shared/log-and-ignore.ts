/** The one method of a logger that `logAndIgnore` needs (pino's and Fastify's loggers have it). */
export interface WarnLog {
  warn(fields: object, message: string): void;
}

/** The same at debug level, for failures that are expected and harmless (see `logAndIgnore`). */
export interface DebugLog {
  debug(fields: object, message: string): void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * For work whose failure must not stop the caller but must not vanish either (a best-effort publish, a slot
 * given back late): a rejection handler that logs `what` failed, with the error's message, and goes on.
 * With `'debug'`, for a failure that is expected and changes nothing (closing what is already closed).
 */
export function logAndIgnore(log: WarnLog, what: string): (error: unknown) => void;
export function logAndIgnore(log: DebugLog, what: string, level: 'debug'): (error: unknown) => void;
export function logAndIgnore(
  log: WarnLog | DebugLog,
  what: string,
  level?: 'debug',
): (error: unknown) => void {
  return (error) => {
    const fields = { error: messageOf(error) };
    if (level === 'debug' && 'debug' in log) log.debug(fields, what);
    else if ('warn' in log) log.warn(fields, what);
  };
}
