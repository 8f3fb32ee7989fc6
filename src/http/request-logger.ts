import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LogFn, Logger } from 'pino';

type Emit = (...args: Parameters<LogFn>) => void;

/**
 * A pino logger whose child loggers are built on the first line actually written at an enabled level.
 * Fastify makes a child of the server's logger for every request (`request.log`), which with redaction
 * configured costs a few microseconds — paid by every request although, below `debug`, almost none logs
 * anything. Bindings (the request id) and redaction still apply to every line that is written.
 *
 * Handed to Fastify as its `loggerInstance` rather than as a `childLoggerFactory`: Fastify checks the shape
 * of every logger a custom factory returns, per request, and skips that check for its default factory.
 */
export class LazyLogger {
  #logger: Logger | undefined;
  readonly #parent: () => Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions | undefined;

  private constructor(parent: () => Logger, bindings: Bindings, options?: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The process logger, for Fastify's `loggerInstance`. */
  static over(logger: Logger): FastifyBaseLogger {
    const root = new LazyLogger(() => logger, {});
    root.#logger = logger;
    return root as unknown as FastifyBaseLogger;
  }

  get #target(): Logger {
    this.#logger ??= this.#parent().child(this.#bindings, this.#options);
    return this.#logger;
  }

  /** Whose level applies: the built logger, or the parent's until a child with its own level is built. */
  get #levelSource(): Logger {
    return this.#logger ?? (this.#options?.level ? this.#target : this.#parent());
  }

  get level(): string {
    return this.#levelSource.level;
  }

  set level(level: string) {
    this.#target.level = level;
  }

  #emit(level: Level, args: Parameters<LogFn>): void {
    if (!this.#levelSource.isLevelEnabled(level)) return;
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
    return this.#levelSource.isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return new LazyLogger(() => this.#target, bindings, options) as unknown as FastifyBaseLogger;
  }
}
