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
import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import { AppError } from '../errors.js';
import { groupCommit } from './group-commit.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { sqliteConnections } from './sqlite-dialect.js';

export type Dialect = 'sqlite' | 'postgres';
export type Row = Record<string, unknown>;

export interface Store {
  readonly dialect: Dialect;
  /** Where the store lives: a file path, ':memory:', or the PostgreSQL URL without its password. */
  readonly path: string;
  /** One row of a statement with `?` placeholders, or undefined. */
  get<R = Row>(sql: string, ...params: unknown[]): Promise<R | undefined>;
  /** Every row of a statement with `?` placeholders. */
  all<R = Row>(sql: string, ...params: unknown[]): Promise<R[]>;
  /** A statement without rows; how many rows it changed. */
  run(sql: string, ...params: unknown[]): Promise<{ changes: number }>;
  /**
   * The same statement without rows once per parameter list, in order: a bulk write, one
   * await for all of it (atomic only inside `tx`, as separate `run`s would be).
   */
  runEach(sql: string, paramLists: readonly (readonly unknown[])[]): Promise<{ changes: number }>;
  /**
   * Run fn in one transaction, given the transaction's handle (`tx` on a transaction's handle
   * joins that transaction). With `wait: false` a transaction that cannot start at once
   * (another writer holds the lock) fails instead of being tried again: for work that is
   * only worth doing when it costs nothing, as saving a cache.
   */
  tx<T>(fn: (tx: Store) => Promise<T>, options?: { wait?: boolean }): Promise<T>;
  /**
   * Run fn in a transaction (a savepoint on a transaction's handle), given its handle, and
   * roll it back: a dry run meets every check the write would, and leaves nothing behind.
   */
  rehearse<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * SQLite only: the whole database as one image (what `openSqlite(':memory:', image)`
   * opens again), for `serve --memory`'s seed cache. Undefined on PostgreSQL.
   */
  readonly snapshot?: () => Uint8Array;
  /**
   * Marks that are different whenever what a read answers may have changed since they were
   * last taken: `all`, with any write of this process (a rolled-back one too); `credentials`,
   * with a write that may change a token or a user; both, on SQLite, with any commit by
   * another connection to the same file. Null where no such mark is cheap (PostgreSQL,
   * whose other instances write unseen) and inside a transaction (whose reads see writes
   * not yet committed: a transaction's handle answers null). What serve's read cache
   * (api/read-cache.ts) keys on.
   */
  revisions(): Revisions | null;
  /**
   * While the store's one connection is taken (SQLite: a group of transactions running or
   * committing, or statements queued behind one), a promise that settles once everything
   * holding or waiting for it now has finished; null when it is free. Always null on
   * PostgreSQL, whose pool runs transactions side by side, and on a transaction's handle.
   * serve's write requests wait on it before they start (api/define.ts: admission).
   */
  busy(): Promise<void> | null;
  /**
   * How many statements that may change data this process has run on the store (`all`), or
   * that may change the credentials (`credentials`). Whether it moved since a revision was
   * taken says, for free, whether this process wrote since: other connections' commits need
   * no such check, since the next revision taken shows them.
   */
  ownChanges(scope?: RevisionScope): number;
  close(): Promise<void>;
}

/**
 * What a revision covers. `all`: anything a read may answer. `credentials`: API tokens and
 * users alone (what authenticating a request reads), which moves only with statements that
 * may change them, so a grade written does not make the next request look its token up again.
 * `access`: what an access decision reads (courses and their content, submissions,
 * enrollments, certificates, reporting lines, templates, tokens and users), which a
 * final-grade write or a gradebook cell does not move, so a stream of grade writes does not
 * make each request decide its access again.
 */
export type RevisionScope = 'all' | 'credentials' | 'access';

/** The revisions, taken at once (one look at other connections' commits). */
export interface Revisions {
  readonly all: string;
  readonly credentials: string;
  readonly access: string;
}

export interface OpenOptions {
  /** PostgreSQL only: the most connections this process holds (default 10). */
  pool?: number;
}

export const DEFAULT_POOL_SIZE = 10;

/** Whether a --db value names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The URL with any password removed: what logs, errors and `whoami` may show. */
export function redactUrl(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const u = new URL(location);
    if (u.password) u.password = '';
    return u.toString().replace(/:@/, '@');
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

/** Open (creating and migrating if needed) the store a --db value names. */
export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  if (isPostgresUrl(location)) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(location, options);
  }
  return openSqlite(location);
}

/**
 * A SQLite store. WAL and a busy timeout let a `serve` process and CLI calls share one file;
 * foreign keys keep references honest.
 */
export function openSqlite(path: string, image?: Uint8Array): Store {
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
  const sqlite = sqliteConnections(db);
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

/** One statement's answer: its rows (a reader's), or how many rows it changed. */
export interface StatementResult {
  rows: Row[];
  changes: number;
}

/** A connection a transaction holds: statements with the dialect's own placeholders. */
export interface StoreConnection {
  query(sql: string, params: readonly unknown[]): Promise<StatementResult>;
  /**
   * SQLite: how many statements that may change rows have completed on the connection, and
   * whether a transaction is open on it. Group commit needs both (group-commit.ts); absent
   * on PostgreSQL, whose transactions are not grouped.
   */
  writesDone?(): number;
  inTransaction?(): boolean;
}

/** What the store needs of a dialect (sqlite-dialect.ts; postgres.ts over Kysely). */
export interface DialectParts {
  dialect: Dialect;
  path: string;
  begin: string;
  /** Run fn holding one connection, for one transaction; the connection is free again after. */
  hold<T>(fn: (conn: StoreConnection) => Promise<T>): Promise<T>;
  /** A statement outside any transaction (where the connection is shared, it waits its turn). */
  query(sql: string, params: readonly unknown[]): Promise<StatementResult>;
  /**
   * One statement run once per parameter list, on the transaction's connection when `conn`
   * is given; how many rows it changed. Absent: the store runs the statements one by one.
   */
  runEach?(sql: string, paramLists: readonly (readonly unknown[])[], conn: StoreConnection | undefined): Promise<number>;
  /**
   * Whether a failed transaction may simply be run again from the start (a lock another writer
   * holds, a serialization failure, a deadlock), given how long this one has been trying.
   */
  retryable(err: unknown, elapsedMs: number): boolean;
  /** The statement with `?` placeholders rewritten for this dialect. */
  placeholders(sql: string): string;
  /**
   * Whether concurrent transactions share one COMMIT (group-commit.ts): where the store has
   * one connection, and a transaction's start and end cost more than its statements (SQLite).
   */
  groupsCommits?: boolean;
  snapshot?: () => Uint8Array;
  /** Store.revisions outside transactions; absent where the dialect has none. */
  revisions?: () => Revisions;
  /** Store.busy; absent where the dialect does not serve its transactions one at a time. */
  busy?: () => Promise<void> | null;
  /** Store.ownChanges; absent where the dialect has no revision. */
  ownChanges?: (scope: RevisionScope) => number;
  close(): Promise<void>;
}

/** The Store over a dialect's connections: transaction handles, retries and the statement helpers. */
export function storeOver(parts: DialectParts, options: { checkTransactions?: boolean } = {}): Store {
  let closing: Promise<void> | null = null;
  const checking = options.checkTransactions ?? process.env.COURSEBOOK_CHECK_TRANSACTIONS === '1';
  const inside = checking ? new AsyncLocalStorage<true>() : null;
  /** A statement or transaction on the store itself must not come from inside a transaction (it would wait for it, or miss it). */
  const refuseFromInside = (what: string): void => {
    if (inside?.getStore()) {
      throw new Error(`${what} went to the store from inside a transaction: use the transaction's handle (tx's argument) instead`);
    }
  };
  const statements = (query: (sql: string, params: readonly unknown[]) => Promise<StatementResult>, conn: StoreConnection | undefined) => ({
    async get<R>(sql: string, ...params: unknown[]) {
      return (await query(parts.placeholders(sql), params)).rows[0] as R | undefined;
    },
    async all<R>(sql: string, ...params: unknown[]) {
      return (await query(parts.placeholders(sql), params)).rows as R[];
    },
    async run(sql: string, ...params: unknown[]) {
      return { changes: (await query(parts.placeholders(sql), params)).changes };
    },
    async runEach(sql: string, paramLists: readonly (readonly unknown[])[]) {
      const text = parts.placeholders(sql);
      if (parts.runEach) return { changes: await parts.runEach(text, paramLists, conn) };
      let changes = 0;
      for (const params of paramLists) changes += (await query(text, params)).changes;
      return { changes };
    },
  });
  /** What the store and each transaction's handle both say of themselves. */
  const described = {
    dialect: parts.dialect,
    path: parts.path,
    ...(parts.snapshot ? { snapshot: parts.snapshot } : {}),
    ownChanges: (scope: RevisionScope = 'all') => parts.ownChanges?.(scope) ?? 0,
  };
  /**
   * The handle fn is given: the store's statements, on the transaction's connection. Made
   * once per connection and kept (a handle holds nothing of its transaction): building the
   * object with its spreads for every transaction cost a final-grade PUT about 5% of its time.
   */
  const handles = new WeakMap<StoreConnection, Store>();
  const handleOf = (conn: StoreConnection): Store => {
    const made = handles.get(conn);
    if (made) return made;
    const handle: Store = {
      ...described,
      revisions: () => null,
      busy: () => null,
      ...statements((sql, params) => conn.query(sql, params), conn),
      tx: (fn) => fn(handle),
      async rehearse(fn) {
        await conn.query('SAVEPOINT rehearsal', []);
        try {
          return await fn(handle);
        } finally {
          await conn.query('ROLLBACK TO SAVEPOINT rehearsal', []);
          await conn.query('RELEASE SAVEPOINT rehearsal', []);
        }
      },
      close: () => Promise.reject(new Error("close the store, not a transaction's handle")),
    };
    handles.set(conn, handle);
    return handle;
  };
  // The check's context is enabled only while one of this store's transactions runs: once
  // enabled, an AsyncLocalStorage costs every promise of the process, and a test process
  // opens hundreds of stores.
  let running = 0;
  const within = async <T>(conn: StoreConnection, fn: (tx: Store) => Promise<T>): Promise<T> => {
    if (!inside) return fn(handleOf(conn));
    running++;
    try {
      return await inside.run(true, () => fn(handleOf(conn)));
    } finally {
      if (--running === 0) inside.disable();
    }
  };
  /**
   * After a failed attempt at a transaction: throw err, unless the dialect says it may simply
   * be run again. Backoff grows with the attempt (capped); the first committer of a round
   * always wins, so every round makes progress and no randomness is needed.
   */
  const retryOrThrow = async (err: unknown, started: number, attempt: number, options: { wait?: boolean }): Promise<void> => {
    if (options.wait === false || !parts.retryable(err, Date.now() - started)) throw err;
    await new Promise((resolve) => setTimeout(resolve, Math.min(attempt * 3, 50)));
  };
  const grouped = parts.groupsCommits ? groupCommit({ hold: parts.hold, begin: parts.begin, retryOrThrow }) : null;
  return {
    ...described,
    revisions: () => (parts.revisions ? parts.revisions() : null),
    busy: () => (parts.busy ? parts.busy() : null),
    ...statements((sql, params) => {
      refuseFromInside('A statement');
      return parts.query(sql, params);
    }, undefined),
    async tx<T>(fn: (tx: Store) => Promise<T>, options: { wait?: boolean } = {}): Promise<T> {
      refuseFromInside('A transaction');
      if (grouped) return grouped((conn) => within(conn, fn), options);
      const started = Date.now();
      for (let attempt = 1; ; attempt++) {
        try {
          return await parts.hold(async (conn) => {
            await conn.query(parts.begin, []);
            try {
              const result = await within(conn, fn);
              await conn.query('COMMIT', []);
              return result;
            } catch (err) {
              await conn.query('ROLLBACK', []).catch(() => undefined);
              throw err;
            }
          });
        } catch (err) {
          await retryOrThrow(err, started, attempt, options);
        }
      }
    },
    async rehearse<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
      refuseFromInside('A rehearsal');
      return parts.hold(async (conn) => {
        await conn.query(parts.begin, []);
        try {
          return await within(conn, fn);
        } finally {
          await conn.query('ROLLBACK', []);
        }
      });
    },
    // Idempotent: a caller that closes its store and a cleanup that closes every store it
    // opened may both call it, and both are answered when the store is closed.
    close: () => {
      closing ??= (async () => {
        inside?.disable();
        await parts.close();
      })();
      return closing;
    },
  };
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

export function tooNewStore(path: string, version: number): AppError {
  return new AppError(
    'unsupported',
    `The store ${path} has schema version ${version}, written by a newer coursebook; this build knows up to version ${SCHEMA_VERSION}. Upgrade coursebook to open it.`,
    { storeVersion: version, supportedVersion: SCHEMA_VERSION },
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
