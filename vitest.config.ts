import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'console/src/**/*.test.{ts,tsx}'],
    // The fault suite runs on its own (`npm run test:faults`): it starts its own database, Redis and servers.
    exclude: ['test/faults/**', 'node_modules/**'],
    globalSetup: ['test/harness/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
