import { closeSync, fstatSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { insertCourse, insertModule, listModules, updateModule } from '../../src/store/courses.js';
import { openStore, type Store, storeOver } from '../../src/store/db.js';
import { SCHEMA_VERSION } from '../../src/store/migrations.js';
import { value } from '../helpers/store-sql.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDb = () => {
  const d = mkdtempSync(join(tmpdir(), 'cb-store-'));
  dirs.push(d);
  return join(d, 'x.db');
};

describe('openStore', () => {
  it('creates the schema, records its version, and uses WAL with foreign keys on', async () => {
    const path = tempDb();
    const store = await openStore(path);
    expect(await value(store, 'PRAGMA user_version')).toBe(SCHEMA_VERSION);
    expect(await value(store, 'PRAGMA journal_mode')).toBe('wal');
    expect(await value(store, 'PRAGMA foreign_keys')).toBe(1);
    expect(Number(await value(store, 'PRAGMA busy_timeout'))).toBeGreaterThan(0);
    await store.close();
    // Re-opening migrates nothing and keeps data.
    const again = await openStore(path);
    expect(await value(again, 'PRAGMA user_version')).toBe(SCHEMA_VERSION);
    await again.close();
  });

  it('closing twice is harmless: the second close leaves alone a file opened in between', async () => {
    const path = tempDb();
    const store = await openStore(path);
    // A revision opens the WAL index, a file the store holds open until it closes.
    expect(store.revisions()?.all).toMatch(/:/);
    await store.close();
    // The kernel hands out the lowest free descriptor: most likely the one the index had.
    const other = openSync(path, 'r');
    try {
      await store.close();
      expect(fstatSync(other).isFile()).toBe(true);
    } finally {
      closeSync(other);
    }
  });

  it('a second close while the first is under way resolves too, with the store closed', async () => {
    const store = await openStore(tempDb());
    const first = store.close();
    await store.close();
    await expect(store.all('SELECT 1')).rejects.toThrow();
    await first;
  });

  it('refuses a store written by a newer build with a clear error', async () => {
    const path = tempDb();
    await (await openStore(path)).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    raw.close();
    let caught: unknown;
    try {
      await openStore(path);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('unsupported');
    expect((caught as AppError).message).toMatch(/newer coursebook/);
  });

  it('keeps positions contiguous: insert at a position shifts, move shifts the ones in between', async () => {
    const store = await openStore(':memory:');
    const now = '2026-11-22T00:00:00.000Z';
    await insertCourse(store, {
      id: 'c',
      title: 'C',
      description: '',
      status: 'draft',
      publishedAt: null,
      objectives: [],
      rubricId: 'course-essentials',
      templateId: null,
      accessFloor: null,
      tutorDefaults: { lesson: 'off', assignment: 'off' },
      createdAt: now,
      updatedAt: now,
    });
    const add = (id: string, position?: number) =>
      insertModule(store, { id, courseId: 'c', title: id, objective: '', status: 'draft', ...(position === undefined ? {} : { position }) });
    await add('a');
    await add('b');
    await add('c0', 0);
    expect((await listModules(store, 'c')).map((m) => `${m.position}:${m.id}`)).toEqual(['0:c0', '1:a', '2:b']);
    const b = (await listModules(store, 'c'))[2]!;
    await updateModule(store, b, { ...b, position: 0 });
    expect((await listModules(store, 'c')).map((m) => `${m.position}:${m.id}`)).toEqual(['0:b', '1:c0', '2:a']);
    await expect(add('z', 9)).rejects.toThrow(/between 0 and 3/);
    await store.close();
  });
});

describe('runEach (a bulk write)', () => {
  const users = (ids: string[]) => ids.map((id) => [id, `User ${id}`]);
  const insertUser = 'INSERT INTO users (id, name, email, admin) VALUES (?, ?, NULL, 0)';
  const ids = async (store: Awaited<ReturnType<typeof openStore>>) =>
    ((await store.all('SELECT id FROM users ORDER BY rowid')) as { id: string }[]).map((r) => r.id);

  it('runs the statement once per parameter list, in order, and counts the changes', async () => {
    const store = await openStore(':memory:');
    expect(await store.runEach(insertUser, users(['u2', 'u1', 'u3']))).toEqual({ changes: 3 });
    expect(await ids(store)).toEqual(['u2', 'u1', 'u3']);
    expect(await store.runEach(insertUser, [])).toEqual({ changes: 0 });
    await store.close();
  });

  it('inside a transaction, a failing row undoes the whole transaction', async () => {
    const store = await openStore(':memory:');
    await store.run(insertUser, 'u0', 'Zero');
    await expect(
      store.tx(async (tx) => {
        await tx.runEach(insertUser, users(['u1', 'u2', 'u0', 'u3']));
      }),
    ).rejects.toMatchObject({ code: expect.stringContaining('SQLITE_CONSTRAINT') });
    expect(await ids(store)).toEqual(['u0']);
    await store.close();
  });

  it('outside a transaction, waits for one that holds the store instead of joining it', async () => {
    const store = await openStore(tempDb());
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const rolledBack = store
      .tx(async (tx) => {
        await tx.run(insertUser, 'tx1', 'In the transaction');
        entered();
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      })
      .catch((err: Error) => err.message);
    await inside;
    const bulk = store.runEach(insertUser, users(['b1', 'b2']));
    expect(await rolledBack).toBe('roll back');
    await bulk;
    expect(await ids(store)).toEqual(['b1', 'b2']);
    await store.close();
  });
});

describe("a transaction's handle", () => {
  const insertUser = 'INSERT INTO users (id, name, email, admin) VALUES (?, ?, NULL, 0)';
  const ids = async (store: Store) => ((await store.all('SELECT id FROM users ORDER BY rowid')) as { id: string }[]).map((r) => r.id);

  it('carries the transaction: tx on it joins, rehearse on it is a savepoint rolled back, and it has no revision', async () => {
    const store = await openStore(tempDb());
    await store.tx(async (tx) => {
      await tx.run(insertUser, 'u1', 'One');
      // Joining: the inner work sees the outer's uncommitted row and commits with it.
      expect(await tx.tx(async (inner) => ids(inner))).toEqual(['u1']);
      await tx.rehearse(async (dry) => {
        await dry.run(insertUser, 'u2', 'Two');
        expect(await ids(dry)).toEqual(['u1', 'u2']);
      });
      expect(await ids(tx)).toEqual(['u1']);
      expect(tx.revisions()).toBeNull();
      await expect(tx.close()).rejects.toThrow(/close the store/);
    });
    expect(await ids(store)).toEqual(['u1']);
    expect(store.revisions()).not.toBeNull();
    await store.close();
  });

  it('under the check the tests run with, a statement or transaction sent to the store itself from inside a transaction fails (it would wait for it), and nothing is written', async () => {
    expect(process.env.COURSEBOOK_CHECK_TRANSACTIONS).toBe('1');
    const store = await openStore(tempDb());
    const refused = /from inside a transaction: use the transaction's handle/;
    await expect(
      store.tx(async (tx) => {
        await tx.run(insertUser, 'u1', 'One');
        await store.get('SELECT 1 AS one');
      }),
    ).rejects.toThrow(refused);
    await expect(store.tx(async () => store.tx(async () => 1))).rejects.toThrow(refused);
    await expect(store.rehearse(async () => store.rehearse(async () => 1))).rejects.toThrow(refused);
    expect(await ids(store)).toEqual([]);
    // Outside any transaction the store is the one to use, and work that merely started
    // inside one but runs after it (a timer) is outside it too.
    let later: Promise<unknown> = Promise.resolve();
    await store.tx(async (tx) => {
      await tx.run(insertUser, 'u2', 'Two');
      later = new Promise((resolve) => setTimeout(resolve, 5)).then(() => 'after');
    });
    expect(await later).toBe('after');
    expect(await ids(store)).toEqual(['u2']);
    await store.close();
  });

  it('without the check (production), the store itself is not watched: no context is kept for it', async () => {
    const parts = storeOver(
      {
        dialect: 'sqlite',
        path: ':memory:',
        begin: 'BEGIN',
        hold: async (fn) => fn({ query: async () => ({ rows: [], changes: 0 }) }),
        query: async () => ({ rows: [{ one: 1 }], changes: 0 }),
        retryable: () => false,
        placeholders: (sql) => sql,
        close: async () => undefined,
      },
      { checkTransactions: false },
    );
    // The outer store answers from inside (its statement would go elsewhere: the caller's mistake, not refused).
    expect(await parts.tx(async () => parts.get('SELECT 1'))).toEqual({ one: 1 });
    await parts.close();
  });
});
