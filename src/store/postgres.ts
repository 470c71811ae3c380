/**
 * The PostgreSQL dialect of the store: a pg pool behind Kysely's PostgresDialect, the same
 * migrations list as SQLite (each migration carries both texts), and the transaction rules of
 * db.ts (SERIALIZABLE, retried on serialization failures). Loaded only when --db names a
 * postgres:// URL, so SQLite users never load pg.
 */
import { CompiledQuery, Kysely, PostgresDialect, type QueryResult } from 'kysely';
import pg from 'pg';
import { AppError } from '../errors.js';
import type { Row, Store, StoreConnection } from './handle.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { DEFAULT_POOL_SIZE, type OpenOptions, redactUrl, tooNewStore } from './opening.js';
import { bulkStatements } from './postgres-bulk-insert.js';
import type { Database as StoreSchema } from './schema-types.js';
import { storeOver } from './store-over.js';

/** int8 (COUNT, bigint columns) as a JS number, as better-sqlite3 hands integers back. */
const INT8_OID = 20;

/** One key for every coursebook migrator of any database: pg_advisory_lock(bigint). */
const MIGRATION_LOCK = 0x636f7572; // "cour"

const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected
const MAX_TX_SECONDS = 10;

export async function openPostgres(url: string, options: OpenOptions): Promise<Store> {
  const shown = redactUrl(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.pool ?? DEFAULT_POOL_SIZE,
    // Every statement, inside a transaction or alone, is SERIALIZABLE: the grade-cell triggers
    // refuse writers at any lower level (docs/grading.md, "Grade cells on PostgreSQL").
    options: '-c default_transaction_isolation=serializable',
    // Idle connections go back after a while and never keep the process alive on their own.
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
    // Each pool gets its own parsers: nothing global is changed for other pg users in the process.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not take the process down.
  pool.on('error', () => undefined);
  try {
    await migratePostgres(pool, shown);
  } catch (err) {
    await pool.end().catch(() => undefined);
    if (err instanceof AppError) throw err;
    throw new AppError('invalid', `cannot open store ${shown}: ${describePgError(err)}`);
  }
  const kysely = new Kysely<StoreSchema>({ dialect: new PostgresDialect({ pool }) });
  // Kysely's executor runs the store's statements (its own SQL, compiled as is).
  const over = (run: (query: CompiledQuery) => Promise<QueryResult<Row>>): StoreConnection => ({
    query: async (sql, params) => {
      const result = await run(CompiledQuery.raw(sql, [...params]));
      return { rows: result.rows, changes: Number(result.numAffectedRows ?? 0n) };
    },
  });
  const outside = over((q) => kysely.executeQuery<Row>(q));
  return storeOver({
    hold: (fn) => kysely.connection().execute((conn) => fn(over((q) => conn.executeQuery<Row>(q)))),
    query: (sql, params) => outside.query(sql, params),
    // A bulk write as multi-row INSERTs: a round trip per few hundred rows, not per row.
    runEach: async (sql, paramLists, conn) => {
      let changes = 0;
      for (const statement of bulkStatements(sql, paramLists)) changes += (await (conn ?? outside).query(statement.sql, statement.params)).changes;
      return changes;
    },
    dialect: 'postgres',
    path: shown,
    begin: 'BEGIN ISOLATION LEVEL SERIALIZABLE',
    retryable: (err, elapsedMs) => RETRYABLE.has((err as { code?: string }).code ?? '') && elapsedMs < MAX_TX_SECONDS * 1000,
    placeholders: numberedPlaceholders,
    // Kysely ends the pool only if it ever ran a statement: a store opened (migrated through the
    // pool) and closed unused kept the migration's connection open.
    close: async () => {
      await kysely.destroy();
      if (!pool.ended) await pool.end();
    },
  });
}

/** `?` placeholders as PostgreSQL's `$1, $2, ...` (none of our statements has a `?` inside a string literal). */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  let out = '';
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else out += ch === '?' ? `$${++n}` : ch;
  }
  return out;
}

/**
 * Apply pending migrations under an advisory lock: instances that start together queue on
 * the lock, and each later one reads the version again and finds the work done.
 */
async function migratePostgres(pool: pg.Pool, shown: string): Promise<void> {
  const client = await pool.connect();
  try {
    // A store already at this version (every open but the first) is read without the lock:
    // versions only go up, and the lock only orders migrators. One round trip, not four.
    const stored = await storedVersion(client);
    if (stored !== null && stored > SCHEMA_VERSION) throw tooNewStore(shown, stored);
    if (stored === SCHEMA_VERSION) return;
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS coursebook_schema (version integer NOT NULL)');
      const row = (await client.query<{ version: number }>('SELECT version FROM coursebook_schema')).rows[0];
      const current = row?.version ?? 0;
      if (current > SCHEMA_VERSION) throw tooNewStore(shown, current);
      if (current === SCHEMA_VERSION) return;
      await client.query('BEGIN');
      try {
        for (const m of MIGRATIONS) {
          if (m.version <= current) continue;
          await client.query(m.postgres);
        }
        await client.query('DELETE FROM coursebook_schema');
        await client.query('INSERT INTO coursebook_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}

/** The schema version the database holds, or null before the first migration made the table. */
async function storedVersion(client: pg.PoolClient): Promise<number | null> {
  try {
    return (await client.query<{ version: number }>('SELECT version FROM coursebook_schema')).rows[0]?.version ?? null;
  } catch (err) {
    if ((err as { code?: string }).code === UNDEFINED_TABLE) return null;
    throw err;
  }
}
const UNDEFINED_TABLE = '42P01';

/** A pg error in one line, never with the password (pg's messages do not carry it). */
export function describePgError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code === 'ECONNREFUSED') return 'no PostgreSQL server answers at that address';
  if (e.code === '28P01' || e.code === '28000') return `authentication failed (${e.message})`;
  if (e.code === '3D000') return `${e.message} (create it first: createdb)`;
  return e.message ?? String(err);
}
