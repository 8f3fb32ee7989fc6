import { timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../../shared/ids.ts';
import { hashToken } from '../accounts/index.ts';

/**
 * The OAuth secrets: client secrets, authorization codes and refresh tokens. Each has ≈ 238 bits of
 * randomness, so SHA-256 (as for API tokens) is all the stored form needs; the prefix tells them apart.
 */
export const refreshTokenPrefix = 'mrr_';
export const newClientSecret = (): string => `mrc_${randomBase62(40)}`;
export const newCode = (): string => randomBase62(40);
export const newRefreshToken = (): string => `${refreshTokenPrefix}${randomBase62(40)}`;

export const hashSecret = (secret: string): string => hashToken(secret);

/** Compares a presented secret with the stored hash in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}
