/**
 * The SQLite dialect of the store: better-sqlite3's one connection behind a queue, with every
 * statement prepared once and reused. Transactions of one process run one at a time and
 * statements outside them wait their turn, the serial order the store's rules are written
 * for. No query builder is loaded: the store's statements are its own SQL, and Kysely (the
 * PostgreSQL dialect's driver) costs every start of the command line that loads it.
 */
import type Database from 'better-sqlite3';
import type { DialectParts, RevisionScope, Row, StatementResult, StoreConnection } from './handle.js';
import { otherCommits } from './wal-index-mark.js';

type Statement = Database.Statement<unknown[], unknown>;

/**
 * A prepared statement, and whether running it may change what later reads see, of anything
 * and of the credentials; a reader's rows come as arrays (raw mode) and `toRow` makes each
 * the row object (see rowMaker).
 */
interface Prepared {
  statement: Statement;
  changes: boolean;
  changesCredentials: boolean;
  changesAccess: boolean;
  /** It may change rows (a write that is not BEGIN, COMMIT, SAVEPOINT and the like): counted in writesDone once it completes. */
  rowWrite: boolean;
  toRow: ((values: unknown[]) => Row) | null;
  /** How many columns toRow was made for. */
  width: number;
  /** A CREATE, ALTER or DROP: once run, what the connection prepared may answer other columns. */
  changesSchema: boolean;
}

/** The tables authenticating a request reads (Store revisions' `credentials`). */
const CREDENTIAL_TABLES = ['tokens', 'users'];

/**
 * The tables an access decision reads (Store revisions' `access`; api/access.ts and
 * store/scope.ts): the caller (tokens, users: an admin flag is part of a decision), the
 * course a resource belongs to and whether students see it, enrollments, submissions'
 * owners, certificates, reporting lines and templates' owners.
 */
const ACCESS_TABLES = [
  ...CREDENTIAL_TABLES,
  'courses',
  'modules',
  'lessons',
  'assignments',
  'blocks',
  'submissions',
  'enrollments',
  'certificates',
  'reporting_lines',
  'templates',
];

/** The narrower revision scopes and the tables each covers (before writersOf widens them). */
const SCOPE_TABLES: Record<'credentials' | 'access', readonly string[]> = { credentials: CREDENTIAL_TABLES, access: ACCESS_TABLES };

/** Statements that begin, end or mark a transaction: they change no row (BEGIN IMMEDIATE counts as a write to SQLite, for its lock). */
const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|END|ROLLBACK|RELEASE|SAVEPOINT)\b/i;

/** The table a plain INSERT, REPLACE, UPDATE or DELETE writes, or null for any other statement. */
const WRITTEN_TABLE = /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+"?(\w+)"?(?=[\s(]|$)/i;

/**
 * Statements that end a transaction or undo part of one. SQLite counts them read-only (they
 * write no row themselves), but a commit publishes the transaction's writes and a rollback
 * takes back what reads inside it saw.
 */
const ENDS_OR_UNDOES = /^\s*(COMMIT|END|ROLLBACK|RELEASE)\b/i;

const MAX_CACHED_STATEMENTS = 2000;

/** Statements that change the schema: what the connection prepared before may now answer other columns. */
const SCHEMA_CHANGE = /^\s*(CREATE|ALTER|DROP)\b/i;

/** The connection parts of the SQLite dialect (db.ts adds the rest), and `close` to let go of them. */
export function sqliteConnections(
  db: Database.Database,
  /** Told after each commit of this connection (serve's checkpoint thread). */
  onCommit?: () => void,
): Pick<DialectParts, 'hold' | 'query' | 'runEach' | 'revisions' | 'busy' | 'ownChanges'> & { close(): void } {
  // A file may be changed by other connections (other processes, other stores on the same
  // file). An in-memory database is this connection's alone, so its own count of changes is
  // the whole revision. Looked at from the first revision taken on (serve's first request):
  // a CLI call never takes one, and its start pays nothing for it.
  let others: ReturnType<typeof otherCommits> | null | undefined;
  const othersNow = () => {
    if (others === undefined) others = db.memory ? null : otherCommits(db);
    return others;
  };
  const connection = new CachedSqliteConnection(db, () => {
    others?.afterOwnCommit();
    onCommit?.();
  });
  let last = { changes: -1, credentialChanges: -1, accessChanges: -1, mark: -1, revisions: { all: '', credentials: '', access: '' } };
  const queue = new ConnectionQueue();
  return {
    hold: async (fn) => {
      await queue.acquire();
      try {
        return await fn(connection);
      } finally {
        queue.release();
      }
    },
    // Nobody holds the connection: a statement outside a transaction runs at once (the
    // check and the call are one synchronous step), instead of a turn through the queue.
    query: async (sql, params) => {
      if (!queue.held) return connection.query(sql, params);
      await queue.acquire();
      try {
        return connection.query(sql, params);
      } finally {
        queue.release();
      }
    },
    // A bulk write runs its rows in one synchronous loop: no turn of the event loop per row.
    runEach: async (sql, paramLists, bound) => {
      if (bound || !queue.held) return connection.runEach(sql, paramLists);
      await queue.acquire();
      try {
        return connection.runEach(sql, paramLists);
      } finally {
        queue.release();
      }
    },
    busy: () => queue.idle(),
    revisions: () => {
      const watched = othersNow();
      const mark = watched ? watched.mark() : -1;
      // Another program committed: if it changed the schema (a newer build migrating the
      // file), statements prepared here may now answer other columns, so they and their
      // row makers are made again.
      if (mark !== last.mark && mark !== -1) connection.forgetIfSchemaChanged();
      // The same counts give back the same objects: between writes (most requests), a
      // request's revisions are the very strings the read cache keeps its entries under,
      // which compare at once, instead of new text compared character by character.
      if (
        connection.changeCount !== last.changes ||
        connection.credentialChangeCount !== last.credentialChanges ||
        connection.accessChangeCount !== last.accessChanges ||
        mark !== last.mark
      ) {
        const others = mark === -1 ? '' : `:${mark}`;
        last = {
          changes: connection.changeCount,
          credentialChanges: connection.credentialChangeCount,
          accessChanges: connection.accessChangeCount,
          mark,
          revisions: {
            all: `${connection.changeCount}${others}`,
            credentials: `${connection.credentialChangeCount}${others}`,
            access: `${connection.accessChangeCount}${others}`,
          },
        };
      }
      return last.revisions;
    },
    ownChanges: (scope: RevisionScope) =>
      scope === 'credentials' ? connection.credentialChangeCount : scope === 'access' ? connection.accessChangeCount : connection.changeCount,
    close: () => {
      connection.clear();
      others?.close();
    },
  };
}

/** One holder at a time, in arrival order. */
class ConnectionQueue {
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | null = null;
  /** Holders and waiters. */
  #waiting = 0;

  /** Whether a transaction or a queued statement holds the connection, or waits for it. */
  get held(): boolean {
    return this.#waiting > 0;
  }

  /** Null when free; else settles once the last holder or waiter queued so far has released (no turn taken). */
  idle(): Promise<void> | null {
    return this.#waiting > 0 ? this.#tail : null;
  }

  async acquire(): Promise<void> {
    this.#waiting++;
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
  }

  release(): void {
    const release = this.#release;
    this.#release = null;
    this.#waiting--;
    release?.();
  }
}

class CachedSqliteConnection implements StoreConnection {
  readonly #statements = new Map<string, Prepared>();
  /**
   * How many statements that may change data this connection has run: with the mark of
   * other connections' commits (otherCommits), the store's revision. Counted before each
   * runs, so a read that overlaps one never carries the revision from before it.
   */
  changeCount = 0;
  /**
   * The same for statements that may change a credential table. A COMMIT or ROLLBACK is
   * not one: what a transaction changed was counted as each statement ran, and reads
   * outside the transaction wait for it to end (the connection's queue), so no value read
   * while it ran can be kept under a mark from before its statements.
   */
  credentialChangeCount = 0;
  /** The same for statements that may change what an access decision reads (ACCESS_TABLES). */
  accessChangeCount = 0;
  /**
   * How many statements that may change rows have completed (a failed one is not counted:
   * SQLite takes back whatever a failed statement did). Group commit (group-commit.ts)
   * compares it before and after a transaction that failed: unchanged, the transaction
   * left nothing to take back.
   */
  #writesDone = 0;

  writesDone(): number {
    return this.#writesDone;
  }

  inTransaction(): boolean {
    return this.db.inTransaction;
  }

  /** Per scope, the tables whose writes may move it (writersOf), read from the schema when a changing statement is first prepared. */
  readonly #writers: { credentials?: ReadonlySet<string>; access?: ReadonlySet<string> } = {};

  constructor(
    readonly db: Database.Database,
    /** Called when a statement of this connection has just committed (see otherCommits). */
    readonly committed: () => void,
  ) {}

  #prepare(sql: string): Prepared {
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      // Statements built with a variable number of placeholders (IN lists) would grow the
      // cache without end: start again past a generous bound.
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      const statement = this.db.prepare(sql);
      const writes = !statement.readonly;
      const rowWrite = writes && !TRANSACTION_CONTROL.test(sql);
      const changesCredentials = rowWrite && this.#mayWrite(sql, 'credentials');
      const changesAccess = rowWrite && this.#mayWrite(sql, 'access');
      const columns = statement.reader ? statement.raw(true).columns() : [];
      const toRow = statement.reader ? this.#rowMakerFor(columns) : null;
      prepared = {
        statement,
        changes: writes || ENDS_OR_UNDOES.test(sql),
        changesCredentials,
        changesAccess,
        rowWrite,
        toRow,
        width: columns.length,
        changesSchema: SCHEMA_CHANGE.test(sql),
      };
      this.#statements.set(sql, prepared);
    }
    if (prepared.changes) this.changeCount++;
    if (prepared.changesCredentials) this.credentialChangeCount++;
    if (prepared.changesAccess) this.accessChangeCount++;
    return prepared;
  }

  /** After a changing statement: outside a transaction now means it committed (or ended one). */
  #ran(prepared: Prepared): void {
    if (prepared.changes && !this.db.inTransaction) this.committed();
  }

  /** Synchronous under the promise: a statement runs whole before anything else can. */
  async query(sql: string, params: readonly unknown[]): Promise<StatementResult> {
    const prepared = this.#prepare(sql);
    const { statement } = prepared;
    const parameters = params as unknown[];
    try {
      // A reader may write too (INSERT ... RETURNING): #ran looks at what it may change.
      if (prepared.toRow) {
        const values = statement.all(parameters) as unknown[][];
        // SQLite prepares a statement again by itself when the schema changed under it, so
        // its columns may no longer be those its row maker was made for: made again then.
        if (values.length > 0 && values[0]!.length !== prepared.width) this.#remake(prepared);
        if (prepared.rowWrite) this.#writesDone++;
        const rows: Row[] = new Array(values.length);
        for (let i = 0; i < values.length; i++) rows[i] = prepared.toRow(values[i]!);
        return { rows, changes: 0 };
      }
      const { changes } = statement.run(parameters);
      if (prepared.rowWrite) this.#writesDone++;
      // This connection changed the schema itself: what it prepared is made again on use.
      if (prepared.changesSchema) this.clear();
      return { rows: [], changes };
    } finally {
      this.#ran(prepared);
    }
  }

  #remake(prepared: Prepared): void {
    const columns = prepared.statement.columns();
    prepared.toRow = this.#rowMakerFor(columns);
    prepared.width = columns.length;
  }

  /** PRAGMA schema_version when forgetIfSchemaChanged last read it (null before its first look). */
  #schemaVersion: number | null = null;

  #readSchemaVersion(): number {
    return this.db.pragma('schema_version', { simple: true }) as number;
  }

  /** After another program's commit: forget the prepared statements if it changed the schema. */
  forgetIfSchemaChanged(): void {
    const now = this.#readSchemaVersion();
    if (this.#schemaVersion !== null && now !== this.#schemaVersion) {
      this.clear();
      // A statement prepared now would be compiled against the schema this connection
      // read last (SQLite reloads it only when a statement runs): reading sqlite_master
      // reloads it, so the columns the next statements report are the new ones.
      this.db.prepare('SELECT count(*) FROM sqlite_master').pluck().get();
    }
    this.#schemaVersion = now;
  }

  runEach(sql: string, paramLists: readonly (readonly unknown[])[]): number {
    const prepared = this.#prepare(sql);
    let changes = 0;
    try {
      for (const parameters of paramLists) {
        changes += prepared.statement.run(parameters as unknown[]).changes;
        if (prepared.rowWrite) this.#writesDone++;
      }
    } finally {
      this.#ran(prepared);
    }
    return changes;
  }

  clear(): void {
    this.#statements.clear();
    this.#rowMakers.clear();
  }

  /** Row makers by their columns' names, shared by statements with the same columns. */
  readonly #rowMakers = new Map<string, (values: unknown[]) => Row>();

  #rowMakerFor(columns: readonly { name: string }[]): (values: unknown[]) => Row {
    const names = columns.map((column) => column.name);
    const key = JSON.stringify(names);
    let maker = this.#rowMakers.get(key);
    if (!maker) {
      if (this.#rowMakers.size >= MAX_CACHED_STATEMENTS) this.#rowMakers.clear();
      maker = rowMaker(names);
      this.#rowMakers.set(key, maker);
    }
    return maker;
  }

  /** A changing statement may change the scope's tables unless it is a plain write of a table that cannot reach one. */
  #mayWrite(sql: string, scope: 'credentials' | 'access'): boolean {
    const table = WRITTEN_TABLE.exec(sql)?.[1]?.toLowerCase();
    if (table === undefined) return true;
    this.#writers[scope] ??= writersOf(this.db, SCOPE_TABLES[scope]);
    return this.#writers[scope].has(table);
  }
}

/**
 * A function that makes a row object from a raw row's values, with these column names as
 * its keys in this order (a later column of the same name wins, as it does in
 * better-sqlite3's own rows).
 *
 * Why: on Node 20 better-sqlite3 builds each row object through V8's API, one property
 * lookup and map transition per column, and that was the largest single cost of a
 * final-grade PUT after SQLite itself. Taking rows raw (arrays) and making the objects with
 * an object literal compiled for the column list lets V8 allocate each row in its final
 * shape: a one-row read is about a sixth quicker, a 200-row read about 45%.
 *
 * The names come from the store's own statements; each is written as a JSON string literal
 * (a valid JavaScript one), and `__proto__` as a computed key, so that it names an own
 * property instead of setting the prototype (better-sqlite3's rows drop such a column; no
 * statement of the store names one).
 */
export function rowMaker(names: readonly string[]): (values: unknown[]) => Row {
  const fields = names.map((name, i) => (name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name)) + `: v[${i}]`);
  try {
    return new Function('v', `return { ${fields.join(', ')} };`) as (values: unknown[]) => Row;
  } catch {
    // Node run with --disallow-code-generation-from-strings (a hardened host): the same
    // rows, made one own property at a time, as slowly as better-sqlite3 made them.
    return (values) => {
      const row: Row = {};
      for (let i = 0; i < names.length; i++) {
        Object.defineProperty(row, names[i]!, { value: values[i], enumerable: true, writable: true, configurable: true });
      }
      return row;
    };
  }
}

/**
 * The tables whose writes may change a credential table, read from the schema: the
 * credential tables, any table with a trigger that names one of these, and any table one of
 * these references with an ON DELETE or ON UPDATE action (a cascade reaches back). Today
 * that is `tokens` and `users` alone; a migration that adds such a trigger or reference
 * widens it by itself.
 */
export function credentialWriters(db: Database.Database): Set<string> {
  return writersOf(db, CREDENTIAL_TABLES);
}

function writersOf(db: Database.Database, tables: readonly string[]): Set<string> {
  const writers = new Set(tables);
  const triggers = db.prepare('SELECT tbl_name AS "table", sql FROM sqlite_master WHERE type = \'trigger\'').all() as { table: string; sql: string }[];
  const references = db.prepare('SELECT "table", on_update AS onUpdate, on_delete AS onDelete FROM pragma_foreign_key_list(?)');
  const names = (sql: string) => [...writers].some((t) => new RegExp(`\\b${t}\\b`, 'i').test(sql));
  for (let grew = true; grew; ) {
    grew = false;
    const add = (table: string) => {
      if (writers.has(table.toLowerCase())) return;
      writers.add(table.toLowerCase());
      grew = true;
    };
    for (const t of triggers) if (names(t.sql)) add(t.table);
    for (const table of [...writers])
      for (const r of references.all(table) as { table: string; onUpdate: string; onDelete: string }[])
        if (r.onUpdate !== 'NO ACTION' || r.onDelete !== 'NO ACTION') add(r.table);
  }
  return writers;
}
