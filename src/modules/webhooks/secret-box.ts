/**
 * Seals webhook signing secrets for storage. They must stay usable to sign (HMAC needs the secret itself), so
 * they are encrypted rather than hashed; `context` (the endpoint id) is bound to the ciphertext so a sealed
 * value copied onto another row does not open. The adapter (adapters/webhooks/secret-box.ts) owns the key.
 */
export interface SecretBox {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}
