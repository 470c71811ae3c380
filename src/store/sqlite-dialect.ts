/**
 * Kysely's SQLite dialect with one difference: statements are prepared once per connection and
 * reused (Kysely's own driver prepares every statement on every call, which costs more than
 * running most of ours). One connection behind a queue, as Kysely's driver has: transactions of
 * one process run one at a time, and statements outside them wait their turn.
 */
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

type Statement = Database.Statement<unknown[], unknown>;

const MAX_CACHED_STATEMENTS = 2000;

/**
 * The dialect, and a direct way to its one connection for the store's own statements: Kysely's
 * executor costs several times what a cached statement does, so `get/all/run` take the queue
 * and call the connection themselves (inside a transaction, which already holds the queue,
 * they call it straight away).
 */
export function cachedSqliteDialect(db: Database.Database): {
  dialect: Dialect;
  execute(query: CompiledQuery, inTransaction: boolean): Promise<QueryResult<Record<string, unknown>>>;
  executeEach(sql: string, paramLists: readonly (readonly unknown[])[], inTransaction: boolean): Promise<number>;
} {
  const driver = new CachedSqliteDriver(db);
  const connection = driver.connection;
  return {
    execute: async (query, inTransaction) => {
      // Nobody holds the connection: a statement outside a transaction runs at once (the
      // check and the call are one synchronous step), instead of a turn through the queue.
      if (inTransaction || !driver.held) return connection.executeQuery(query);
      await driver.acquireConnection();
      try {
        return await connection.executeQuery(query);
      } finally {
        await driver.releaseConnection();
      }
    },
    // A bulk write runs its rows in one synchronous loop: no turn of the event loop per row.
    executeEach: async (sql, paramLists, inTransaction) => {
      if (inTransaction || !driver.held) return connection.runEach(sql, paramLists);
      await driver.acquireConnection();
      try {
        return connection.runEach(sql, paramLists);
      } finally {
        await driver.releaseConnection();
      }
    },
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (k: Kysely<any>) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  };
}

class CachedSqliteDriver implements Driver {
  readonly connection: CachedSqliteConnection;
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | null = null;
  /** Whether a transaction or a queued statement holds the connection, or waits for it. */
  #waiting = 0;

  get held(): boolean {
    return this.#waiting > 0;
  }

  constructor(db: Database.Database) {
    this.connection = new CachedSqliteConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#waiting++;
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = null;
    this.#waiting--;
    release?.();
  }

  async destroy(): Promise<void> {
    this.connection.clear();
  }
}

class CachedSqliteConnection implements DatabaseConnection {
  readonly #statements = new Map<string, Statement>();

  constructor(readonly db: Database.Database) {}

  #prepare(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      // Statements built with a variable number of placeholders (IN lists) would grow the
      // cache without end: start again past a generous bound.
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#prepare(query.sql);
    const parameters = query.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  runEach(sql: string, paramLists: readonly (readonly unknown[])[]): number {
    const statement = this.#prepare(sql);
    let changes = 0;
    for (const parameters of paramLists) changes += statement.run(parameters as unknown[]).changes;
    return changes;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.#prepare(query.sql);
    for (const row of statement.iterate(query.parameters as unknown[])) yield { rows: [row as R] };
  }

  clear(): void {
    this.#statements.clear();
  }
}
