import { existsSync } from 'node:fs';

/**
 * Whether the shared recorded data a suite reads (`../shared/data/…`) is there. It lives beside the
 * repository, never in it, so a clone on its own (a newcomer's, or CI's when nothing is placed beside it) has
 * none: those suites are then skipped with a warning naming what is missing, rather than failed.
 */
export function sharedDataPresent(suite: string, ...paths: string[]): boolean {
  const missing = paths.filter((path) => !existsSync(path));
  if (missing.length === 0) return true;
  console.warn(`skipping ${suite}: ${missing.join(', ')} absent (shared recorded data, beside the clone)`);
  return false;
}
