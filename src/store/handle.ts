/**
 * The store handle's types, and what a dialect gives the handle: types only, so the
 * dialects (sqlite-dialect.ts, postgres.ts), group commit and the handle's own code
 * (store-over.ts) all depend on this file and on nothing above them. The store's design
 * (transactions, dialects, grouping) is described at the top of db.ts.
 */

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
