import { describe, expect, it } from 'vitest';
import { parseRateLimit } from './rate-limit.ts';

describe('parseRateLimit', () => {
  it('reads the quota from the two headers the API sends', () => {
    expect(parseRateLimit('"account";r=118;t=1', '"account";q=120;w=60')).toEqual({
      limit: 120,
      remaining: 118,
      used: 2,
      windowSeconds: 60,
      resetSeconds: 1,
    });
  });

  it('is undefined when a header is missing or malformed', () => {
    expect(parseRateLimit(null, '"account";q=120;w=60')).toBeUndefined();
    expect(parseRateLimit('"account";t=1', '"account";q=120;w=60')).toBeUndefined();
    expect(parseRateLimit('"account";r=5;t=1', undefined)).toBeUndefined();
  });
});
