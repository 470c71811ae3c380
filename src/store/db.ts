/**
 * The store: one asynchronous, dialect-neutral handle, on SQLite (better-sqlite3, a file or
 * ':memory:', through sqlite-dialect.ts) or PostgreSQL (pg behind Kysely, a postgres:// URL).
 * Store modules are written once against this handle; nothing outside src/store sees SQL or
 * a table name.
 *
 * Transactions. `tx(fn)` runs fn in one transaction on one connection, and hands fn the
 * transaction's own handle: a Store whose statements go to that connection. Everything fn
 * does in the transaction goes through that handle (pass it down as the store), never the
 * store it was opened from: outside a transaction, that store's statements wait their turn
 * (SQLite) or take another connection (PostgreSQL). The handle is explicit rather than
 * carried by the async context (AsyncLocalStorage), because an enabled AsyncLocalStorage
 * costs every promise the process makes, for every request, not only the transaction's.
 * Under the tests (COURSEBOOK_CHECK_TRANSACTIONS=1) the store does keep that context, only to
 * refuse a statement that went to the outer store from inside a transaction.
 * - SQLite: BEGIN IMMEDIATE, so a transaction that reads then writes never has to upgrade its
 *   lock (another process's write would otherwise fail it with SQLITE_BUSY). The SQLite
 *   dialect has one connection behind a queue, so transactions of one process run one at a time
 *   and queries outside them wait their turn: the same serial order the synchronous store had.
 *   Transactions that arrive together share one BEGIN and one COMMIT, each in a savepoint of
 *   its own, and each is answered after that COMMIT (group-commit.ts).
 * - PostgreSQL: ISOLATION LEVEL SERIALIZABLE, retried from the start (up to 10 times) when
 *   the server reports a serialization failure or a deadlock. Serializable transactions behave
 *   as if run one after another, so every read-check-write rule written for SQLite
 *   (optimistic versions, counters, positions, "exactly one winner") holds unchanged across
 *   connections and across `serve` instances: of two same-version writers one commits and the
 *   other is retried, reads the new version and answers `conflict`.
 */
import Database from 'better-sqlite3';
import { AppError } from '../errors.js';
import type { Store } from './handle.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { isPostgresUrl, type OpenOptions, tooNewStore } from './opening.js';
import { sqliteConnections } from './sqlite-dialect.js';
import { storeOver } from './store-over.js';
import { startWalCheckpointer } from './wal-checkpointer.js';

// The store's public face: what the rest of the project imports from here.
export type { Dialect, DialectParts, RevisionScope, Revisions, Row, StatementResult, Store, StoreConnection } from './handle.js';
export { DEFAULT_POOL_SIZE, isPostgresUrl, type OpenOptions, redactUrl, tooNewStore } from './opening.js';
export { storeOver } from './store-over.js';

/** Open (creating and migrating if needed) the store a --db value names. */
export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  if (isPostgresUrl(location)) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(location, options);
  }
  return openSqlite(location, undefined, options);
}

/**
 * A SQLite store. WAL and a busy timeout let a `serve` process and CLI calls share one file;
 * foreign keys keep references honest.
 */
export function openSqlite(path: string, image?: Uint8Array, options: Pick<OpenOptions, 'checkpointThread'> = {}): Store {
  let db: Database.Database;
  try {
    // An image (Store.snapshot) opens as an in-memory database holding a copy of it.
    db = image === undefined ? new Database(path) : new Database(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  } catch (err) {
    throw new AppError('invalid', `cannot open store ${path}: ${(err as Error).message}`);
  }
  try {
    db.pragma('busy_timeout = 5000');
    refuseForeignDatabase(db, path);
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrateSqlite(db, path);
  } catch (err) {
    if (db.open) db.close();
    if (err instanceof AppError) throw err;
    // SQLITE_NOTADB and friends: a text file, a folder of something else, a damaged store.
    throw new AppError('invalid', `cannot open store ${path}: it is not a coursebook store (${(err as Error).message})`);
  }
  // From here on a lock held by another connection is waited for without blocking the event
  // loop: a statement waits at most a moment in SQLite's busy handler (which sleeps the
  // thread), and a transaction that could not take the write lock is tried again after an
  // asynchronous pause, for up to SQLITE_LOCK_WAIT_MS in all. A second connection in the same
  // process (two local stores, tests) then never stalls the one holding the lock.
  db.pragma(`busy_timeout = ${SQLITE_STATEMENT_BUSY_MS}`);
  const checkpointer =
    options.checkpointThread && image === undefined && db.pragma('journal_mode', { simple: true }) === 'wal'
      ? startWalCheckpointer(db, { onFailure: options.checkpointThread.onFailure })
      : null;
  const sqlite = sqliteConnections(db, checkpointer?.committed);
  return storeOver({
    ...sqlite,
    dialect: 'sqlite',
    path,
    begin: 'BEGIN IMMEDIATE',
    groupsCommits: true,
    retryable: (err, elapsedMs) => isSqliteBusy(err) && elapsedMs < SQLITE_LOCK_WAIT_MS,
    placeholders: (sql) => sql,
    snapshot: () => db.serialize(),
    close: async () => {
      sqlite.close();
      // Its connection first: the last connection to close checkpoints the WAL and removes it.
      await checkpointer?.close();
      if (db.open) db.close();
    },
  });
}

const SQLITE_STATEMENT_BUSY_MS = 20;
const SQLITE_LOCK_WAIT_MS = 5000;

function isSqliteBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * A SQLite file that some other program wrote (tables, but no coursebook schema version)
 * is refused rather than having coursebook's tables added to it.
 */
function refuseForeignDatabase(db: Database.Database, path: string): void {
  // One statement, so one snapshot: read apart, another process's first migration could
  // commit in between (version 0 read before it, its tables counted after), and a new
  // store that processes opened together looked foreign to the slower one.
  const { version, tables } = db
    .prepare("SELECT user_version AS version, (SELECT count(*) FROM sqlite_master WHERE type = 'table') AS tables FROM pragma_user_version")
    .get() as { version: number; tables: number };
  if (version !== 0) return;
  if (tables > 0)
    throw new AppError(
      'invalid',
      `cannot open store ${path}: it is a SQLite database, but not a coursebook store (it already has ${tables} table${tables === 1 ? '' : 's'} and no coursebook schema version)`,
    );
}

/**
 * Apply pending migrations. The schema version is read again inside one exclusive
 * transaction that also applies them: processes that open a new file at the same moment
 * queue on the lock (busy_timeout), and each later one finds the work done instead of
 * creating the tables a second time ("table users already exists").
 */
function migrateSqlite(db: Database.Database, path: string): void {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  try {
    // Without a lock first: a store that is up to date (every open but the first) stays lock-free.
    const seen = version();
    if (seen > SCHEMA_VERSION) throw tooNewStore(path, seen);
    if (seen === SCHEMA_VERSION) return;
    db.transaction(() => {
      const current = version();
      if (current > SCHEMA_VERSION) throw tooNewStore(path, current);
      for (const m of MIGRATIONS) {
        if (m.version <= current) continue;
        db.exec(m.sqlite);
        db.pragma(`user_version = ${m.version}`);
      }
    }).exclusive();
  } catch (err) {
    db.close();
    throw err;
  }
}
