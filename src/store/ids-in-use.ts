/**
 * What the store already holds, for the sequential id source of `serve --deterministic`:
 * a new id or token secret must never collide with a record of the seed.
 */
import type { TakenCheck } from '../runtime/ids.js';
import type { Store } from './db.js';
import * as tables from './tables.js';
import { sha256Hex } from './tokens.js';

const isTable = (value: unknown): value is tables.Table<unknown> =>
  typeof value === 'object' && value !== null && 'name' in value && 'key' in value && 'fromRow' in value;

/** Every table whose records are keyed by one `id` column (tables added later are included by construction). */
const ID_TABLES: readonly string[] = Object.values(tables as Record<string, unknown>).flatMap((t) =>
  isTable(t) && t.key.length === 1 && t.key[0] === 'id' ? [t.name] : [],
);

/**
 * The taken check a sequential id source of this store consults: a snapshot of every id and
 * token hash the store holds when the source is made (after seeding or a reset). The source
 * never repeats its own values, so only the seed's records can collide with it; an id a
 * client chooses later that a sequential id then repeats is refused as any duplicate id is
 * (`conflict`), never overwritten.
 */
export async function storeTakenCheck(store: Store): Promise<TakenCheck> {
  const ids = new Set<string>();
  for (const name of ID_TABLES) for (const row of await store.all<{ id: string }>(`SELECT id FROM ${name}`)) ids.add(row.id);
  const hashes = new Set((await store.all<{ h: string }>('SELECT token_sha256 AS h FROM tokens')).map((r) => r.h));
  return { id: (id) => ids.has(id), secret: (secret) => hashes.has(sha256Hex(secret)) };
}
