/** The one method of a logger that `logAndIgnore` needs (pino's and Fastify's loggers have it). */
export interface WarnLog {
  warn(fields: object, message: string): void;
}

/**
 * For work whose failure must not stop the caller but must not vanish either (a best-effort publish, a slot
 * given back late): a rejection handler that logs `what` failed, with the error's message, and goes on.
 */
export function logAndIgnore(log: WarnLog, what: string): (error: unknown) => void {
  return (error) => log.warn({ error: error instanceof Error ? error.message : String(error) }, what);
}
