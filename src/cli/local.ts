import { localAuthenticator } from '../api/auth.js';
import { makeCaller } from '../api/caller.js';
import type { Authenticator } from '../api/context.js';
import { lazyApp } from '../api/route-table.js';
import { AppError } from '../errors.js';
import type { Clock } from '../runtime/clock.js';
import type { Ids } from '../runtime/ids.js';
import { isPostgresUrl, openStore } from '../store/db.js';
import { firstAdmin, getUser, insertUser } from '../store/users.js';
import { type ActingUserSource, prepareStoreFile, refusePoolForSqlite, type StorePath, unknownActingUser } from './backend.js';
import { inProcessClient } from './client.js';
import { type ApiClient, UsageError } from './command.js';

/**
 * Before a store is opened, by a local command or serve: a SQLite file's folder is checked
 * (prepareStoreFile); a PostgreSQL database needs nothing here, since opening it creates and
 * migrates the schema. A password must not travel as `?password=`: the store leaves the
 * query of a URL it prints as it is, so the password would show in its messages.
 */
export function prepareStore(store: StorePath, pool: number | undefined, note: (message: string) => void): { postgres: boolean } {
  const postgres = isPostgresUrl(store.path);
  refusePoolForSqlite(pool, postgres);
  if (!postgres) {
    prepareStoreFile(store, note);
    return { postgres };
  }
  let query: URLSearchParams | null = null;
  try {
    query = new URL(store.path).searchParams;
  } catch {
    // pg reports an unparseable URL when the store opens (without the password).
  }
  if (query?.has('password'))
    throw new UsageError('--db: give the PostgreSQL password in the URL (postgres://USER:PASSWORD@HOST/DB), PGPASSWORD or ~/.pgpass, not as ?password=');
  return { postgres };
}

/**
 * Local mode: the same HTTP app over the local store, acting as the local user: the first
 * admin (a `local` admin is created when the store has none), or `--as` user.
 * Import and dump never add a user: with no admin in the store they act as a transient one.
 */
export async function openLocalClient(options: {
  db: string;
  /** The default store location: its folder is made on demand (any other folder must exist). */
  isDefault: boolean;
  as?: string | undefined;
  /** Where `as` came from (the flag when not said), named when the store has no such user. */
  asFrom?: ActingUserSource | undefined;
  /** --db-pool: PostgreSQL only (the store's default when undefined). */
  pool?: number | undefined;
  persistActor: boolean;
  clock: Clock;
  ids: Ids;
  note: (message: string) => void;
  /** The process's light Fetch classes (Io.useLiteFetch), taken before the app is made. */
  useLiteFetch?: (() => void) | undefined;
}): Promise<{
  client: ApiClient;
  close: () => void;
}> {
  const path = options.db;
  prepareStore({ path, isDefault: options.isDefault }, options.pool, options.note);
  const store = await openStore(path, options.pool === undefined ? {} : { pool: options.pool });
  let auth: Authenticator;
  if (options.as) {
    if (!(await getUser(store, options.as))) {
      await store.close();
      throw new AppError('unauthenticated', unknownActingUser(options.as, options.asFrom));
    }
    auth = localAuthenticator(options.as);
  } else {
    const admin = await firstAdmin(store);
    if (admin) auth = localAuthenticator(admin.id);
    else if (options.persistActor) {
      // Looked for again inside the write transaction: processes starting together on a new
      // store must not both create the local admin.
      const actor = await store.tx(
        async (tx) => (await firstAdmin(tx)) ?? (await insertUser(tx, { id: 'local', name: 'Local admin', email: null, admin: true })),
      );
      auth = localAuthenticator(actor.id);
    } else {
      auth = {
        authenticate: async () => makeCaller({ id: 'local', name: 'Local admin', email: null, admin: true }, ['*'], { kind: 'local', id: 'local' }),
      };
    }
  }
  options.useLiteFetch?.();
  const deps = { store, clock: options.clock, ids: options.ids, auth };
  // A command asks for a few paths: a cold start loads and registers only their routes.
  const app = lazyApp(deps);
  return { client: inProcessClient({ request: (url, init) => app.request(url, init) }), close: () => store.close() };
}
