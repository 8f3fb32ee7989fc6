import { type ProblemDetail, validationError } from './errors.ts';

/**
 * The page cursors of every list: the position the next page starts after, as JSON in base64url — opaque to
 * clients, and read back only into the shape the list issued.
 */
export function encodeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position in a cursor when `read` accepts it; undefined for anything else (not base64url JSON, another list's). */
export function readCursor<T>(cursor: string, read: (value: unknown) => T | undefined): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  return read(value);
}

/** The one problem every list answers for a cursor it did not issue (400 `validation_failed`). */
export const cursorProblem: ProblemDetail = {
  pointer: '/query/cursor',
  message: 'is not a cursor this endpoint returned',
};

/** `readCursor`, throwing the 400 for a cursor the list did not issue. */
export function decodeCursor<T>(cursor: string, read: (value: unknown) => T | undefined): T {
  const position = readCursor(cursor, read);
  if (position === undefined) throw validationError([cursorProblem]);
  return position;
}
