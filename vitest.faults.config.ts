import { defineConfig } from 'vitest/config';

/** `npm run test:faults`: the fault suite alone (its own PostgreSQL, Redis and server processes). */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
