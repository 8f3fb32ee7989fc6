import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/**
 * The process logger (pino, JSON lines on stdout): one instance shared by the HTTP server and every module
 * (`logger.child({ module })`). Secrets are redacted in the places they can be logged from: request and
 * response headers (as `req`/`res`, or a bare `headers` object up to one level down), and fields named
 * password, token or secret at the top level and up to two levels down. Deeper nesting is not covered (pino's
 * redaction needs explicit paths), so code logs identifiers, never request bodies.
 */
const secretFields = ['password', 'token', 'secret'];
const headerSecrets = ['authorization', 'cookie', '["sec-websocket-protocol"]'];
const redactPaths = [
  ...headerSecrets.map((h) => `req.headers${h.startsWith('[') ? h : `.${h}`}`),
  'res.headers["set-cookie"]',
  ...headerSecrets.flatMap((h) => {
    const key = h.startsWith('[') ? h : `.${h}`;
    return [`headers${key}`, `*.headers${key}`];
  }),
  ...secretFields.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
];

export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: redactPaths,
        censor: '[redacted]',
      },
    },
    stream,
  );
}
