import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL cluster for the run (#18); test files make their own databases in it.
    globalSetup: ['test/setup/postgres-global.ts'],
    // CLI end-to-end tests spawn node processes; keep the 2-core CI machine responsive.
    pool: 'forks',
    maxWorkers: 2,
    // No module-level state anywhere (clock, ids and stores come in), so test files may share
    // a worker's loaded modules instead of importing the whole app again for each file.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
