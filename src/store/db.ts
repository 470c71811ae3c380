import Database from 'better-sqlite3';
import { AppError } from '../errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

type Statement = Database.Statement<unknown[], unknown>;

export interface Store {
  readonly db: Database.Database;
  readonly path: string;
  /** A cached prepared statement: prepare once per store, reuse on every call. */
  stmt(sql: string): Statement;
  /** Run fn in one IMMEDIATE transaction (nested calls join the outer one). */
  tx<T>(fn: () => T): T;
  close(): void;
}

/**
 * Open (creating if needed) a store file, or ':memory:'. WAL and a busy timeout let a
 * `serve` process and CLI calls share one file; foreign keys keep references honest.
 */
export function openStore(path: string): Store {
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (err) {
    throw new AppError('invalid', `cannot open store ${path}: ${(err as Error).message}`);
  }
  try {
    db.pragma('busy_timeout = 5000');
    refuseForeignDatabase(db, path);
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, path);
  } catch (err) {
    if (db.open) db.close();
    if (err instanceof AppError) throw err;
    // SQLITE_NOTADB and friends: a text file, a folder of something else, a damaged store.
    throw new AppError('invalid', `cannot open store ${path}: it is not a coursebook store (${(err as Error).message})`);
  }

  const cache = new Map<string, Statement>();
  const store: Store = {
    db,
    path,
    stmt(sql) {
      let s = cache.get(sql);
      if (!s) {
        s = db.prepare(sql);
        cache.set(sql, s);
      }
      return s;
    },
    tx(fn) {
      if (db.inTransaction) return fn();
      return db.transaction(fn).immediate();
    },
    close() {
      cache.clear();
      if (db.open) db.close();
    },
  };
  return store;
}

/**
 * A SQLite file that some other program wrote (tables, but no coursebook schema version)
 * is refused rather than having coursebook's tables added to it.
 */
function refuseForeignDatabase(db: Database.Database, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version !== 0) return;
  const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
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
function migrate(db: Database.Database, path: string): void {
  const tooNew = (version: number) =>
    new AppError(
      'unsupported',
      `The store ${path} has schema version ${version}, written by a newer coursebook; this build knows up to version ${SCHEMA_VERSION}. Upgrade coursebook to open it.`,
      { storeVersion: version, supportedVersion: SCHEMA_VERSION },
    );
  const version = () => db.pragma('user_version', { simple: true }) as number;
  try {
    // Without a lock first: a store that is up to date (every open but the first) stays lock-free.
    const seen = version();
    if (seen > SCHEMA_VERSION) throw tooNew(seen);
    if (seen === SCHEMA_VERSION) return;
    db.transaction(() => {
      const current = version();
      if (current > SCHEMA_VERSION) throw tooNew(current);
      for (const m of MIGRATIONS) {
        if (m.version <= current) continue;
        db.exec(m.sql);
        db.pragma(`user_version = ${m.version}`);
      }
    }).exclusive();
  } catch (err) {
    db.close();
    throw err;
  }
}
