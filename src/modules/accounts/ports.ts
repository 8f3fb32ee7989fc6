/**
 * Seals a TOTP secret for storage (the server must read it back to check codes, so it is encrypted, not
 * hashed); `context` (the user id) is bound to the ciphertext. The webhook secret box fills it (app/).
 */
export interface SecretSealer {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}
