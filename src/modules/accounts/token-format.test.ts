import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateToken, hashToken, isWellFormedToken, tokenPrefix } from './token-format.ts';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-.';

describe('API token format', () => {
  it('generates prefixed, well-formed, distinct tokens with at least 128 bits of randomness', () => {
    const tokens = new Set(Array.from({ length: 500 }, generateToken));
    expect(tokens.size).toBe(500);
    for (const token of tokens) {
      expect(token.startsWith(tokenPrefix)).toBe(true);
      expect(isWellFormedToken(token)).toBe(true);
    }
    // 32 base62 characters of randomness: 32 × log2(62) ≈ 190 bits.
    expect(32 * Math.log2(62)).toBeGreaterThan(128);
  });

  it('rejects every single-character substitution (checksum)', () => {
    fc.assert(
      fc.property(
        fc.constant(null).map(() => generateToken()),
        fc.nat(),
        fc.constantFrom(...alphabet),
        (token, index, replacement) => {
          const at = index % token.length;
          fc.pre(token[at] !== replacement);
          const changed = token.slice(0, at) + replacement + token.slice(at + 1);
          expect(isWellFormedToken(changed)).toBe(false);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('rejects deletions, insertions and truncations', () => {
    fc.assert(
      fc.property(
        fc.constant(null).map(() => generateToken()),
        fc.nat(),
        fc.constantFrom(...alphabet),
        (token, i, ch) => {
          const at = i % token.length;
          expect(isWellFormedToken(token.slice(0, at) + token.slice(at + 1))).toBe(false);
          expect(isWellFormedToken(token.slice(0, at) + ch + token.slice(at))).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
    expect(isWellFormedToken('')).toBe(false);
    expect(isWellFormedToken('Bearer')).toBe(false);
  });

  it('hashes with SHA-256 and never returns the secret', () => {
    const token = generateToken();
    const hash = hashToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token.slice(4, 12));
  });
});
