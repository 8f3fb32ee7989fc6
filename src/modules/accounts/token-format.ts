import * as crypto from 'node:crypto';
import { crc32 } from 'node:zlib';
import { decodeBase62, encodeBase62, randomBase62 } from '../../shared/ids.ts';

/**
 * API token format: `mrd_` + 32 base62 characters of randomness (≈190 bits) + 6 base62 characters of
 * CRC-32 over everything before it. The prefix makes leaked tokens easy to spot by secret scanners; the
 * checksum lets us reject typos and garbage before any database work. CRC-32 catches every
 * single-character change (a one-byte burst), which the property test checks.
 */
export const tokenPrefix = 'mrd_';
const randomLength = 32;
const checksumLength = 6;
export const tokenLength = tokenPrefix.length + randomLength + checksumLength;
const shape = /^mrd_[0-9A-Za-z]{38}$/;

const checksumOf = (body: string): string => encodeBase62(crc32(body), checksumLength);

export function generateToken(): string {
  const body = tokenPrefix + randomBase62(randomLength);
  return body + checksumOf(body);
}

/** True when the text has the token shape and its checksum matches. Does no I/O. */
export function isWellFormedToken(text: string): boolean {
  if (text.length !== tokenLength || !shape.test(text)) return false;
  const body = text.slice(0, -checksumLength);
  const given = decodeBase62(text.slice(-checksumLength));
  return given === crc32(body);
}

/**
 * SHA-256 as hex. `crypto.hash` (Node ≥ 20.12) builds no Hash object; earlier Node 20 releases, which the
 * engines field still admits, fall back to createHash. (A named import of `hash` would fail to load there.)
 */
export const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * Only this hash is stored. SHA-256 suffices: the secret has ≈190 bits of entropy, no stretching needed.
 * Every authenticated request computes it (the token cache is keyed by it), so it is the one-shot
 * `crypto.hash`, which builds no Hash object: ≈ 0.4 µs instead of ≈ 1 µs in isolation, and measurably less
 * under load.
 */
export function hashToken(token: string): string {
  return sha256Hex(token);
}

/** The hash a token is stored under; `undefined` for text that cannot be a token (not a token's length). */
export const candidateTokenHash = (text: string): string | undefined =>
  text.length === tokenLength ? hashToken(text) : undefined;

/** The part shown in listings so a user can tell tokens apart without the secret. */
export const displayStart = (token: string): string => token.slice(0, tokenPrefix.length + 6);
