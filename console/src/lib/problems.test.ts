import { describe, expect, it } from 'vitest';
import { MeridianProblemError } from '../api/client.ts';
import { fieldErrors, rowErrors } from './problems.ts';

const problem = (errors: object[]) =>
  new MeridianProblemError(
    400,
    { status: 400, detail: 'invalid', errors: errors as never },
    new Response(null),
  );

describe('fieldErrors', () => {
  it('maps body pointers to form fields and keeps the rest for the form note', () => {
    const error = problem([
      { pointer: '/body/condition/value', message: 'must be > 0' },
      { pointer: '/symbol', message: 'unknown symbol' },
      { pointer: '/body/condition/value', message: 'second message is dropped' },
      { pointer: '/body', message: 'something else' },
    ]);
    const { byField, rest } = fieldErrors(error, ['symbol', 'condition/value', 'name']);
    expect(Object.fromEntries(byField)).toEqual({
      'condition/value': 'must be > 0',
      symbol: 'unknown symbol',
    });
    expect(rest.map((p) => p.pointer)).toEqual(['/body']);
  });

  it('has nothing for errors that are not problem documents', () => {
    expect(fieldErrors(new Error('network'), ['a']).byField.size).toBe(0);
    expect(fieldErrors(undefined, ['a']).rest).toEqual([]);
  });
});

describe('rowErrors', () => {
  it('groups import problems by file line (CSV), by row otherwise, and keeps body problems apart', () => {
    const error = problem([
      { row: 2, line: 3, pointer: '/rows/1/quantity', message: 'not a number', column: 'quantity' },
      { row: 2, line: 3, pointer: '/rows/1/asset', message: 'unknown asset' },
      { row: 4, pointer: '/rows/3/asset', message: 'unknown asset' },
      { pointer: '/body', message: 'needs a header' },
    ]);
    const { byLine, other } = rowErrors(error);
    expect(byLine.get(3)!.map((p) => p.message)).toEqual(['not a number', 'unknown asset']);
    expect(byLine.get(4)!.map((p) => p.pointer)).toEqual(['/rows/3/asset']);
    expect(other.map((p) => p.message)).toEqual(['needs a header']);
  });
});
