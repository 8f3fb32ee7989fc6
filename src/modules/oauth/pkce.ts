import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set. */
const verifierShape = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL(SHA-256(verifier)) without padding: always 43 characters. */
const challengeShape = /^[A-Za-z0-9\-_]{43}$/;

export const isVerifierShaped = (verifier: string): boolean => verifierShape.test(verifier);
export const isChallengeShaped = (challenge: string): boolean => challengeShape.test(challenge);

export const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** True when the verifier hashes to the challenge (compared in constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
