/**
 * What a table description is (as Actual's loot-core has one per table): its name, key,
 * columns, and the mapping both ways between a row (snake_case columns, JSON text, 0/1
 * booleans) and the resource shape of the spec (camelCase). Also the column readers the
 * descriptions use, and the statements every store module writes and reads rows with. The
 * descriptions themselves are in tables-*.ts (tables.ts hands them all on).
 */
import type { Store } from './db.js';
import { inListSlices, placeholders } from './in-lists.js';

export type Row = Record<string, unknown>;

/** What a table is: its name, key and columns, and its row mapping both ways. */
interface TableSpec<V> {
  readonly name: string;
  readonly key: readonly string[];
  readonly columns: readonly string[];
  toRow(value: V): Row;
  fromRow(row: Row): V;
}

export interface Table<V> extends TableSpec<V> {
  /**
   * Its INSERT statements, made once: a statement built again for every write cost a
   * request a little, and its new text had to be hashed again to find the prepared statement.
   */
  readonly writes: { readonly insert: string; readonly upsert: string };
}

export const table = <V>(t: TableSpec<V>): Table<V> => ({ ...t, writes: { insert: insertSql(t, 'insert'), upsert: insertSql(t, 'upsert') } });

// Column readers: what SQLite hands back is typed `unknown`; each reader says what the
// column holds by the table's own definition (migrations.ts).
/** A JSON column's value, or the fallback when the column is null. */
export const json = <T>(v: unknown, fallback: T): T => (v === null || v === undefined ? fallback : (JSON.parse(v as string) as T));
/** A NOT NULL JSON column: its text parsed, with no fallback to stand in for a missing value. */
export const requiredJson = <T>(v: unknown): T => JSON.parse(v as string) as T;
export const jsonText = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));
export const str = <T extends string = string>(v: unknown): T => v as T;
export const nstr = <T extends string = string>(v: unknown): T | null => (v === null || v === undefined ? null : (v as T));
export const num = (v: unknown): number => v as number;
export const nnum = (v: unknown): number | null => (v === null || v === undefined ? null : (v as number));

// --- generic statements over a description ------------------------------------------

/**
 * The statement that writes a record of the table. An upsert updates a record whose key
 * exists in place, replacing every non-key column (no delete, so nothing cascades away).
 */
function insertSql<V>(t: TableSpec<V>, mode: 'insert' | 'upsert'): string {
  const cols = t.columns;
  const values = placeholders(cols.length);
  const update = cols
    .filter((c) => !t.key.includes(c))
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return mode === 'upsert' && update
    ? `INSERT INTO ${t.name} (${cols.join(', ')}) VALUES (${values}) ON CONFLICT(${t.key.join(', ')}) DO UPDATE SET ${update}`
    : `INSERT INTO ${t.name} (${cols.join(', ')}) VALUES (${values})`;
}

export async function insertRecord<V>(store: Store, t: Table<V>, value: V, mode: 'insert' | 'upsert' = 'insert'): Promise<V> {
  const row = t.toRow(value);
  await store.run(t.writes[mode], ...t.columns.map((c) => row[c]));
  return value;
}

/** Many records of one table, in order, as one bulk write (store.runEach). */
export async function insertRecords<V>(store: Store, t: Table<V>, values: readonly V[], mode: 'insert' | 'upsert' = 'insert'): Promise<void> {
  if (values.length === 0) return;
  await store.runEach(
    t.writes[mode],
    values.map((value) => {
      const row = t.toRow(value);
      return t.columns.map((c) => row[c]);
    }),
  );
}

/** Overwrite every column of the record with this key (the key columns stay). */
export async function updateRecord<V>(store: Store, t: Table<V>, value: V): Promise<V> {
  const row = t.toRow(value);
  const set = t.columns.filter((c) => !t.key.includes(c));
  await store.run(
    `UPDATE ${t.name} SET ${set.map((c) => `${c} = ?`).join(', ')} WHERE ${t.key.map((k) => `${k} = ?`).join(' AND ')}`,
    ...set.map((c) => row[c]),
    ...t.key.map((k) => row[k]),
  );
  return value;
}

/** What finding a record by its key needs of a table: its name and key columns. */
export type TableKey = Pick<Table<unknown>, 'name' | 'key'>;

/** Whether a record with this key exists (key values in the table's key order). */
export async function recordExists(store: Store, t: TableKey, key: readonly unknown[]): Promise<boolean> {
  return (await store.get(`SELECT 1 AS x FROM ${t.name} WHERE ${t.key.map((k) => `${k} = ?`).join(' AND ')}`, ...key)) !== undefined;
}

/**
 * Which of these keys already name a record, in order, asked about 500 at a time (a dataset
 * of 25,000 submissions asked once per record spent a tenth of its import on the question,
 * and on PostgreSQL each question is a round trip). A composite key is matched as a row
 * value against a VALUES list, which SQLite and PostgreSQL both read.
 */
export async function recordsExisting(store: Store, t: TableKey, keys: readonly (readonly unknown[])[]): Promise<boolean[]> {
  const found = new Set<string>();
  const select = t.key.map((k, i) => `${k} AS k${i}`).join(', ');
  const tuple = `(${t.key.map(() => '?').join(', ')})`;
  for (const slice of inListSlices(keys)) {
    const where =
      t.key.length === 1 ? `${t.key[0]} IN (${placeholders(slice.length)})` : `(${t.key.join(', ')}) IN (VALUES ${slice.map(() => tuple).join(', ')})`;
    const rows = await store.all<Row>(`SELECT ${select} FROM ${t.name} WHERE ${where}`, ...slice.flat());
    for (const row of rows) found.add(JSON.stringify(t.key.map((_, k) => row[`k${k}`])));
  }
  return keys.map((k) => found.has(JSON.stringify(k)));
}

/** Every record of a table in the given column order (a dump). */
export async function allRecords<V>(store: Store, t: Table<V>, orderBy: readonly string[] = t.key): Promise<V[]> {
  return ((await store.all(`SELECT * FROM ${t.name} ORDER BY ${orderBy.join(', ')}`)) as Row[]).map(t.fromRow);
}
