import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LogFn, Logger } from 'pino';

type Emit = (...args: Parameters<LogFn>) => void;

/**
 * The per-request logger (`request.log`). Fastify builds a pino child for every request by default, which
 * with redaction configured costs a few microseconds — paid by every request although, below `debug`, almost
 * none logs anything. This one creates the child on the first line actually written at an enabled level, so
 * the request id binding and the redaction rules still apply to every line that is written.
 */
export class LazyRequestLogger {
  #child: Logger | undefined;
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get #target(): Logger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return (this.#child ?? this.#parent).level;
  }

  set level(level: string) {
    this.#target.level = level;
  }

  #emit(level: Level, args: Parameters<LogFn>): void {
    if (!(this.#child ?? this.#parent).isLevelEnabled(level)) return;
    (this.#target[level] as Emit)(...args);
  }

  fatal(...args: Parameters<LogFn>): void {
    this.#emit('fatal', args);
  }
  error(...args: Parameters<LogFn>): void {
    this.#emit('error', args);
  }
  warn(...args: Parameters<LogFn>): void {
    this.#emit('warn', args);
  }
  info(...args: Parameters<LogFn>): void {
    this.#emit('info', args);
  }
  debug(...args: Parameters<LogFn>): void {
    this.#emit('debug', args);
  }
  trace(...args: Parameters<LogFn>): void {
    this.#emit('trace', args);
  }
  silent(): void {}

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#target.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a lazily built child per request. */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // The server's logger is always pino (src/app/logger.ts).
  return new LazyRequestLogger(parent as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
