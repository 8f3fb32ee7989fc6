import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, readCursor } from './cursor.ts';
import { isAppError } from './errors.ts';

const pair = (value: unknown) =>
  Array.isArray(value) && Number.isSafeInteger(value[0]) && typeof value[1] === 'string'
    ? { n: value[0] as number, id: value[1] }
    : undefined;

describe('page cursors', () => {
  it('round-trips a position through an opaque base64url string', () => {
    const cursor = encodeCursor([42, 'evt_1']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, pair)).toEqual({ n: 42, id: 'evt_1' });
  });

  it('refuses garbage and another shape with the same 400 naming the cursor', () => {
    for (const bad of ['%%%', 'bm90IGpzb24', encodeCursor({ a: 1 }), encodeCursor(['x', 'y'])]) {
      expect(readCursor(bad, pair)).toBeUndefined();
      let thrown: unknown;
      try {
        decodeCursor(bad, pair);
      } catch (error) {
        thrown = error;
      }
      expect(isAppError(thrown) && thrown.code).toBe('validation_failed');
      expect(isAppError(thrown) && thrown.status).toBe(400);
      expect(isAppError(thrown) && thrown.errors).toEqual([
        { pointer: '/query/cursor', message: 'is not a cursor this endpoint returned' },
      ]);
    }
  });
});
