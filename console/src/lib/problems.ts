import { MeridianProblemError } from '../api/client.ts';

/** A validation problem as the server lists it; CSV imports add the row, line and column it came from. */
export interface FieldProblem {
  pointer: string;
  message: string;
  row?: number;
  line?: number;
  column?: string;
  field?: string;
}

const problemsOf = (error: unknown): FieldProblem[] =>
  error instanceof MeridianProblemError ? ((error.errors ?? []) as FieldProblem[]) : [];

/**
 * Messages per form field from a validation problem: `/body/condition/value` (or `/condition/value`) is the
 * field "condition/value". Problems that name no known field stay for the form-level note.
 */
export function fieldErrors(error: unknown, fields: readonly string[]) {
  const byField = new Map<string, string>();
  const rest: FieldProblem[] = [];
  for (const problem of problemsOf(error)) {
    const path = problem.pointer.replace(/^\/body(?=\/|$)/, '').replace(/^\//, '');
    const field = fields.find((f) => path === f || path.startsWith(`${f}/`));
    if (field && !byField.has(field)) byField.set(field, problem.message);
    else if (!field) rest.push(problem);
  }
  return { byField, rest };
}

/** Import problems grouped by the file line the row starts on (CSV) or the 1-based row (JSON). */
export function rowErrors(error: unknown) {
  const byLine = new Map<number, FieldProblem[]>();
  const other: FieldProblem[] = [];
  for (const problem of problemsOf(error)) {
    const key = problem.line ?? problem.row;
    if (key === undefined) {
      other.push(problem);
      continue;
    }
    byLine.set(key, [...(byLine.get(key) ?? []), problem]);
  }
  return { byLine, other };
}
