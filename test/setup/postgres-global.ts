/**
 * One throwaway PostgreSQL cluster for the whole test run (vitest globalSetup): started before
 * the first test file, stopped after the last, whether tests passed or not. Test files get
 * its superuser URL with `inject('pgAdminUrl')` and create their own databases in it
 * (test/helpers/postgres.ts createDatabase), so parallel files never share one.
 */
import type { TestProject } from 'vitest/node';
import { openStore } from '../../src/store/db.js';
import { createDatabase, startPostgres, TEMPLATE_DATABASE } from '../helpers/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** postgres://postgres@127.0.0.1:PORT/postgres of the run's cluster. */
    pgAdminUrl: string;
    /** The same through the cluster's Unix socket: postgres://postgres@localhost:PORT/postgres?host=FOLDER. */
    pgSocketUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide('pgAdminUrl', postgres.url);
  project.provide('pgSocketUrl', postgres.socketUrl);
  const url = await createDatabase(postgres.url, TEMPLATE_DATABASE);
  const store = await openStore(url, { pool: 1 });
  await store.close();
  return async () => {
    await postgres.stop();
  };
}
