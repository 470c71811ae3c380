/** Raw reads for tests that look beneath the API (schema, caches, pragmas): first column only. */
import type { Store } from '../../src/store/db.js';

/** The first column of every row. */
export async function column(store: Store, sql: string, ...params: unknown[]): Promise<unknown[]> {
  return (await store.all(sql, ...params)).map((row) => Object.values(row)[0]);
}

/** The first column of the first row, or undefined. */
export async function value(store: Store, sql: string, ...params: unknown[]): Promise<unknown> {
  const row = await store.get(sql, ...params);
  return row === undefined ? undefined : Object.values(row)[0];
}
