import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // e2e files each start their own in-process sandbox on port 0; two cores, so keep it modest
    maxWorkers: 2,
    // Test files share their worker's process (one after the other): the sources, the command tree
    // and the official document's validators are loaded once per worker instead of once per file,
    // which was half of the suite's time. So a file that changes module state (LIMITS, a spy) or
    // the process's (process.env) puts it back after its tests, as limits.test.ts does.
    isolate: false,
  },
});
