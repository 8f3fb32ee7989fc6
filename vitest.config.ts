import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Seven test tiers, as Vitest projects (`vitest run --project <name>`). `npm test` runs unit, console and
 * service (with lint and type-check); `npm run test:all` adds slow, integration, e2e, browser and the fault
 * suite. What belongs in each: README.md (Testing) and docs/architecture.md (Tests).
 *
 * - unit: pure tests (no database, network, server or child process), beside their code as `src/**\/*.test.ts`,
 *   the SDK's `packages/*\/src/**\/*.test.ts`, and the few pure tests in test/ whose subject spans many modules.
 *   No global setup: `npm run test:unit` needs no service and runs in under a minute.
 * - console: the web console's `console/src/**\/*.test.{ts,tsx}` (happy-dom), each file isolated.
 * - service: in-process app (Fastify inject or a loopback listener), PGlite and memory adapters; cases
 *   parametrized over `dbKinds()` also run on PostgreSQL, and a few on Redis, when the global setup finds them.
 * - slow: any file named `*.slow.test.ts` (in src/ or test/): a test that is right where it is but takes many
 *   seconds of CPU on its own (whole recorded data files, long model fits). Chosen by name, so a new heavy
 *   test lands here by being named so, never by being listed.
 * - integration: files whose subject is a real PostgreSQL, Redis or anvil (skipped without it, failed
 *   under MERIDIAN_REQUIRE_SERVICES=1).
 * - e2e: a fresh clone, CLI processes, the SDK against a server process, the documentation's shell examples
 *   against a server process, the container build and the lockfile.
 * - browser: the console in a headless browser against a server process.
 *
 * Every test file under test/ not listed below is a service test. The fault suite runs on its own
 * (`npm run test:faults`, vitest.faults.config.ts): it starts its own database, Redis and servers.
 */

/** Pure tests that stay in test/: their subject is spread across many modules. */
const unitInTest = [
  'test/foundation/docs.test.ts',
  'test/foundation/imports.test.ts',
  'test/sdk/types-drift.test.ts',
  'test/sdk/python-drift.test.ts',
];

/** The slow tier, by name (see above): excluded from every other project. */
const slow = ['src/**/*.slow.test.ts', 'test/**/*.slow.test.ts'];

const integration = [
  'test/alerts/two-workers.test.ts',
  'test/foundation/leadership.test.ts',
  'test/foundation/token-cache.test.ts',
  'test/integration/partitions.test.ts',
  'test/integration/worker-health.test.ts',
  'test/integration/worker-loss.test.ts',
  'test/onchain/evm-indexer.test.ts',
  'test/onchain/multichain.test.ts',
  'test/push/replicas-redis.test.ts',
  'test/push/slots-redis.test.ts',
  'test/webhooks/channel-caps.test.ts',
  'test/webhooks/channels-crash.test.ts',
  'test/webhooks/channels.test.ts',
  'test/webhooks/crash.test.ts',
];

/** The console in a headless browser (playwright-core driving /usr/bin/chromium) against a server process. */
const browser = [
  'test/console/e2e.test.ts',
  'test/console/e2e-quality.test.ts',
  'test/console/oauth.test.ts',
  'test/console/two-factor.test.ts',
  'test/console/e2e-sso.test.ts',
  'test/console/organization.test.ts',
];

const e2e = [
  'test/foundation/cli.test.ts',
  'test/foundation/docs-examples.test.ts',
  'test/foundation/fresh-clone.test.ts',
  'test/mcp/stdio.test.ts',
  'test/packaging/container.test.ts',
  'test/packaging/lockfile.test.ts',
  'test/sdk/client.test.ts',
  'test/sdk/package.test.ts',
  'test/sdk/python-client.test.ts',
];

/** Builds dist/ once, migrates the PGlite snapshot and the PostgreSQL template, checks Redis: once per run. */
const globalSetup = ['test/harness/global-setup.ts'];

export default defineConfig({
  // The console imports the SDK from its sources, as console/vite.config.ts does.
  resolve: {
    alias: { '@meridian/client': fileURLToPath(new URL('packages/client/src/index.ts', import.meta.url)) },
  },
  test: {
    // Shared by every project (`extends: true`); one worker pool for the whole run.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache) for the next run.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Pure modules keep no state between files, so a worker loads them once for all its files.
          isolate: false,
          include: ['src/**/*.test.ts', 'packages/*/src/**/*.test.ts', ...unitInTest],
          exclude: [...configDefaults.exclude, ...slow],
        },
      },
      {
        extends: true,
        // Isolated: the console's API client captures `fetch` when it loads, which each file stubs first.
        test: { name: 'console', include: ['console/src/**/*.test.{ts,tsx}'] },
      },
      {
        extends: true,
        test: {
          name: 'service',
          // One module graph per worker across its files: the app's imports are loaded once, not per file.
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'test/faults/**',
            ...slow,
            ...unitInTest,
            ...integration,
            ...e2e,
            ...browser,
          ],
          globalSetup,
        },
      },
      {
        extends: true,
        // Minutes of CPU in all, run once by `npm run test:all`: a timeout that a busy machine cannot reach.
        test: { name: 'slow', include: slow, globalSetup, testTimeout: 600_000 },
      },
      { extends: true, test: { name: 'integration', include: integration, globalSetup } },
      { extends: true, test: { name: 'e2e', include: e2e, globalSetup } },
      {
        extends: true,
        // The browser suites need console/dist: built once here rather than by both suites at once.
        test: {
          name: 'browser',
          include: browser,
          globalSetup: [...globalSetup, 'test/harness/console-build.ts'],
          // A page waits on the server's answer and a re-render: 1 s (Vitest's default) is not enough on a
          // machine busy with the other suites (a row deleted in the page was still shown after 1 s once).
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
