import { decodeCursor, encodeCursor } from '../../shared/cursor.ts';

/** The token list's page cursor: the last row's creation time and id (shared/cursor.ts). */
export const encodeTokenCursor = (t: { created_at: number; id: string }): string =>
  encodeCursor([t.created_at, t.id]);

/** The position a cursor names; the shared 400 naming `cursor` when this list did not issue it. */
export const decodeTokenCursor = (cursor: string): { createdAt: number; id: string } =>
  decodeCursor(cursor, (value) =>
    Array.isArray(value) && Number.isSafeInteger(value[0]) && typeof value[1] === 'string'
      ? { createdAt: value[0] as number, id: value[1] }
      : undefined,
  );
