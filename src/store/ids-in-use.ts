/**
 * What the store already holds, for the sequential id source of `serve --deterministic`:
 * a new id or token secret must never collide with a record of the seed.
 */
import type { TakenCheck } from '../runtime/ids.js';
import type { Store } from './db.js';
import * as tables from './tables.js';
import { findTokenByHash, sha256Hex } from './tokens.js';

const isTable = (value: unknown): value is tables.Table<unknown> =>
  typeof value === 'object' && value !== null && 'name' in value && 'key' in value && 'fromRow' in value;

/** Every table whose records are keyed by one `id` column (tables added later are included by construction). */
const ID_TABLES: readonly string[] = Object.values(tables as Record<string, unknown>).flatMap((t) =>
  isTable(t) && t.key.length === 1 && t.key[0] === 'id' ? [t.name] : [],
);

/** True when any record of any id-keyed table has this id. */
export function idInUse(store: Store, id: string): boolean {
  return ID_TABLES.some((name) => store.stmt(`SELECT 1 AS x FROM ${name} WHERE id = ?`).get(id) !== undefined);
}

/** The taken check a sequential id source of this store consults. */
export function storeTakenCheck(store: Store): TakenCheck {
  return {
    id: (id) => idInUse(store, id),
    secret: (secret) => findTokenByHash(store, sha256Hex(secret)) !== null,
  };
}
