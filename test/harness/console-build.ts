import { buildConsole, consoleBuildIsCurrent } from '../../scripts/ensure-console.mjs';

/**
 * Global setup of the browser project: builds console/dist once, before any test file, when it is missing or
 * older than its sources. The two browser suites run in parallel and each makes sure of the build; left to
 * them, a fresh checkout had both running `vite build` into the same folder at once.
 */
export default function setup() {
  if (consoleBuildIsCurrent()) return;
  if (buildConsole({ quiet: true }) !== 0) throw new Error('building the web console (vite build) failed');
}
