import { defineConfig } from 'vitest/config';

/** What both projects run with (each project states it: see globalSetup below). */
const shared = {
  // CLI end-to-end tests spawn node processes; keep the 2-core CI machine responsive.
  pool: 'forks',
  // No module-level state anywhere (clock, ids and stores come in), so test files may share
  // a worker's loaded modules instead of importing the whole app again for each file.
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 30_000,
} as const;

// A statement sent to the store instead of its transaction's handle, from inside a
// transaction, fails (store/db.ts) rather than waiting for the transaction it is part of.
const CHECKED = { COURSEBOOK_CHECK_TRANSACTIONS: '1' };

export default defineConfig({
  test: {
    ...shared,
    maxWorkers: 2,
    // One PostgreSQL cluster for the run (#18); test files make their own databases in it.
    // Only here: the root project's global setup runs once and both projects read what it
    // provides. A project that extended this config would start a cluster of its own, one
    // more initdb each (three clusters in all, seconds before the first test).
    globalSetup: ['test/setup/postgres-global.ts'],
    projects: [
      // Everything, on SQLite (files and :memory:).
      { test: { ...shared, name: 'sqlite', include: ['test/**/*.test.ts'], env: CHECKED } },
      // The API suite again on PostgreSQL: makeService (test/helpers/app.ts) opens a fresh
      // database of the test cluster instead of :memory: (#18).
      { test: { ...shared, name: 'postgres', include: ['test/api/**/*.test.ts'], env: { ...CHECKED, COURSEBOOK_TEST_STORE: 'postgres' } } },
    ],
  },
});
