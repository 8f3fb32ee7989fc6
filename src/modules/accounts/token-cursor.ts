import { AppError } from '../../shared/errors.ts';

/**
 * The opaque page cursor of the token list: the last row's creation time and id, as base64url JSON (the same
 * shape as the alert rules' cursor).
 */
export const encodeTokenCursor = (t: { created_at: number; id: string }): string =>
  Buffer.from(JSON.stringify([t.created_at, t.id])).toString('base64url');

/** The position a cursor names; a 400 naming `cursor` when this list did not issue it. */
export function decodeTokenCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && Number.isSafeInteger(value[0]) && typeof value[1] === 'string')
      return { createdAt: value[0] as number, id: value[1] };
  } catch {
    // not base64url JSON: refused below
  }
  throw new AppError('validation_failed', 'the cursor is not one this list returned', {
    errors: [{ pointer: '/query/cursor', message: 'is not a cursor returned by this list' }],
  });
}
