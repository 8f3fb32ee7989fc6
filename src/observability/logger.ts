import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/**
 * The process logger (pino, JSON lines on stdout): one instance shared by the HTTP server and every module
 * (`logger.child({ module })`). Secrets are redacted in the places they can be logged from: request and
 * response headers (as `req`/`res`, or a bare `headers` object up to one level down), and fields named
 * password, token or secret at the top level and up to two levels down. Deeper nesting is not covered (pino's
 * redaction needs explicit paths), so code logs identifiers, never request bodies. A field named `url` has
 * token-shaped values in its query string redacted (`redactUrl`).
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

/**
 * A URL as it may be logged: in its query string, token-shaped values (`mrd_…`) and the values of
 * parameters named like credentials are replaced by `[redacted]` — a token pasted into a query string must
 * not reach the log. The path is kept as is (it never carries credentials).
 */
function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url.slice(q).replace(credentialParam, '$1[redacted]').replace(tokenShaped, '[redacted]');
  return url.slice(0, q) + query;
}
const credentialParam =
  /([?&](?:code|state|[^=&]*(?:token|secret|password|passwd|session|api[_-]?key|auth|signature|sig)[^=&]*)=)[^&#]*/gi;
const tokenShaped = /mrd_[A-Za-z0-9_-]*/g;

export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: { url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url) },
      redact: {
        paths: redactPaths,
        censor: '[redacted]',
      },
    },
    stream,
  );
}
