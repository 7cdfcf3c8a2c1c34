import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // e2e files each start their own in-process sandbox on port 0; two cores, so keep it modest
    maxWorkers: 2,
  },
});
