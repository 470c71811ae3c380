import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
    // A statement sent to the store instead of its transaction's handle, from inside a
    // transaction, fails (store/db.ts) rather than waiting for the transaction it is part of.
    env: { COURSEBOOK_CHECK_TRANSACTIONS: '1' },
    projects: [
      // Everything, on SQLite (files and :memory:).
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      // The API suite again on PostgreSQL: makeService (test/helpers/app.ts) opens a fresh
      // database of the test cluster instead of :memory: (#18).
      {
        extends: true,
        test: { name: 'postgres', include: ['test/api/**/*.test.ts'], env: { COURSEBOOK_CHECK_TRANSACTIONS: '1', COURSEBOOK_TEST_STORE: 'postgres' } },
      },
    ],
  },
});
