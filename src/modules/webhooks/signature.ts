import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` + the base64 of the HMAC key (24 random bytes, 192 bits). */
const SECRET_PREFIX = 'whsec_';

export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

const keyOf = (secret: string) =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

/**
 * The Standard Webhooks signature of one message: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
 * `timestampSec` is whole seconds since the epoch, as sent in `webhook-timestamp`.
 */
export function signMessage(secret: string, messageId: string, timestampSec: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret))
    .update(`${messageId}.${timestampSec}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers. Several secrets (current first, then one being retired after a
 * rotation) give several space-separated signatures; a receiver accepts the message if any one verifies.
 */
export function signatureHeaders(
  secrets: readonly string[],
  messageId: string,
  timestampSec: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSec),
    'webhook-signature': secrets.map((s) => signMessage(s, messageId, timestampSec, body)).join(' '),
  };
}
