import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/**
 * The process logger (pino, JSON lines on stdout): one instance shared by the HTTP server and every module
 * (`logger.child({ module })`), with secrets redacted wherever they might appear.
 */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["sec-websocket-protocol"]',
          'res.headers["set-cookie"]',
          '*.password',
          '*.token',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    stream,
  );
}
