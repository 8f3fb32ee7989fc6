import { existsSync } from 'node:fs';

/**
 * Whether the shared recorded data a suite reads (`../shared/data/…`) is there. A fresh clone without the
 * shared folder beside it skips those suites with a warning; in CI (MERIDIAN_REQUIRE_SERVICES=1) a missing
 * file fails the suite instead, so a skipped check is never reported as passing.
 */
export function sharedDataPresent(suite: string, ...paths: string[]): boolean {
  const missing = paths.filter((path) => !existsSync(path));
  if (missing.length === 0) return true;
  const what = `${suite}: ${missing.join(', ')} absent (shared recorded data)`;
  if (process.env.MERIDIAN_REQUIRE_SERVICES === '1') throw new Error(`required but cannot run — ${what}`);
  console.warn(`skipping ${what}`);
  return false;
}
