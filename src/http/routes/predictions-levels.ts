import { validationError } from '../../shared/errors.ts';
import { MAX_LEVELS } from './predictions-levels.schemas.ts';

/** A plain decimal price: digits, an optional fraction and exponent (no hex, no sign, no Infinity). */
const PRICE = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The `levels` of a probability request: a comma list of 1–MAX_LEVELS prices, each a finite number > 0. Every
 * bad entry is named in one 400 problem at /query/levels.
 */
export function parseLevels(raw: string): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  const problems: string[] = [];
  if (parts.length > MAX_LEVELS) problems.push(`at most ${MAX_LEVELS} levels, got ${parts.length}`);
  const levels: number[] = [];
  for (const [k, part] of parts.entries()) {
    const value = PRICE.test(part) ? Number(part) : Number.NaN;
    if (Number.isFinite(value) && value > 0) levels.push(value);
    else
      problems.push(
        part === ''
          ? `entry ${k + 1} is empty`
          : `entry ${k + 1} (${JSON.stringify(part)}) is not a price > 0`,
      );
  }
  if (problems.length)
    throw validationError(problems.map((message) => ({ pointer: '/query/levels', message })));
  return levels;
}
