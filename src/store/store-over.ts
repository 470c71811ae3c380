/** The one Store over any dialect's connections (see db.ts for the design it implements). */
import { AsyncLocalStorage } from 'node:async_hooks';
import { groupCommit } from './group-commit.js';
import type { DialectParts, RevisionScope, StatementResult, Store, StoreConnection } from './handle.js';

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
