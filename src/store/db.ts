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
  db.pragma('busy_timeout = 5000');
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db, path);

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

function migrate(db: Database.Database, path: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    db.close();
    throw new AppError(
      'unsupported',
      `The store ${path} has schema version ${current}, written by a newer coursebook; this build knows up to version ${SCHEMA_VERSION}. Upgrade coursebook to open it.`,
      { storeVersion: current, supportedVersion: SCHEMA_VERSION },
    );
  }
  const pending = MIGRATIONS.filter((m) => m.version > current);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
  }).immediate();
}
