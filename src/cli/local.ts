import { createApp } from '../api/app.js';
import { localAuthenticator } from '../api/auth.js';
import type { Authenticator } from '../api/context.js';
import { AppError } from '../errors.js';
import type { Clock } from '../runtime/clock.js';
import type { Ids } from '../runtime/ids.js';
import { openStore } from '../store/db.js';
import { firstAdmin, getUser, insertUser } from '../store/users.js';
import { prepareStoreFile } from './backend.js';
import { inProcessClient } from './client.js';
import type { ApiClient } from './command.js';

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
  persistActor: boolean;
  clock: Clock;
  ids: Ids;
  note: (message: string) => void;
}): Promise<{
  client: ApiClient;
  close: () => void;
}> {
  const path = options.db;
  prepareStoreFile({ path, isDefault: options.isDefault }, options.note);
  const store = await openStore(path);
  let auth: Authenticator;
  if (options.as) {
    if (!(await getUser(store, options.as))) {
      await store.close();
      throw new AppError('unauthenticated', `--as names a user that does not exist in this store: ${JSON.stringify(options.as)}`);
    }
    auth = localAuthenticator(options.as);
  } else {
    const admin = await firstAdmin(store);
    if (admin) auth = localAuthenticator(admin.id);
    else if (options.persistActor) {
      // Looked for again inside the write transaction: processes starting together on a new
      // store must not both create the local admin.
      const actor = await store.tx(
        async () => (await firstAdmin(store)) ?? (await insertUser(store, { id: 'local', name: 'Local admin', email: null, admin: true })),
      );
      auth = localAuthenticator(actor.id);
    } else {
      auth = {
        authenticate: async () => ({
          user: { id: 'local', name: 'Local admin', email: null, admin: true },
          scopes: new Set(['*']),
          credential: { kind: 'local', id: 'local' },
        }),
      };
    }
  }
  const app = createApp({ store, clock: options.clock, ids: options.ids, auth });
  return { client: inProcessClient(app), close: () => store.close() };
}
