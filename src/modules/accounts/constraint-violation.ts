/**
 * A refused write shaped like PostgreSQL's (SQLSTATE in `code`, the constraint's name), so that code handling
 * the database's refusals treats the twin's alike.
 */
function constraintViolation(code: '23505' | '23503', constraint: string, message: string): Error {
  return Object.assign(new Error(message), { code, constraint });
}

export const duplicateKey = (constraint: string) =>
  constraintViolation('23505', constraint, `duplicate key value violates unique constraint "${constraint}"`);

export const missingUser = (table: string) =>
  constraintViolation(
    '23503',
    `${table}_user_id_fkey`,
    `insert or update on table "${table}" violates foreign key constraint "${table}_user_id_fkey"`,
  );
