// The store's bulk writes (insertRecords, runEach) and its existence question (recordsExisting)
// on either dialect: on PostgreSQL they run as multi-row INSERTs and row-value IN lists
// (store/postgres-bulk-insert.ts), and must write and answer exactly as row by row.
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/db.js';
import { ENROLLMENTS, insertRecords, recordsExisting, USERS } from '../../src/store/tables.js';
import { uniqueConflict } from '../../src/store/unique-conflict.js';
import { openTestStore } from '../helpers/app.js';
import { column } from '../helpers/store-sql.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

const user = (i: number, name = `User ${i}`) => ({ id: `u${String(i).padStart(4, '0')}`, name, email: null, admin: i === 0 });

describe('bulk writes', () => {
  it('1,203 records in one bulk write (more than one batch) are all written, in order', async () => {
    store = await openTestStore();
    const values = Array.from({ length: 1203 }, (_, i) => user(i));
    await store.tx((tx) => insertRecords(tx, USERS, values));
    expect(await column(store, 'SELECT id FROM users ORDER BY id')).toEqual(values.map((u) => u.id));
    expect(await column(store, 'SELECT admin FROM users WHERE id = ?', 'u0000')).toEqual([1]);
  });

  it('an upsert that names one key twice keeps the later record, as one write after the other does', async () => {
    store = await openTestStore();
    await insertRecords(store, USERS, [user(1, 'stored')]);
    const { changes } = await store.runEach(
      'INSERT INTO users (id, name, email, admin) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name',
      [
        ['u0001', 'first', null, 0],
        ['u0002', 'new', null, 0],
        ['u0001', 'second', null, 0],
      ],
    );
    expect(changes).toBe(3);
    expect(await column(store, 'SELECT name FROM users ORDER BY id')).toEqual(['second', 'new']);
  });

  it('a duplicate inside a bulk insert fails it as a conflict, and the transaction writes nothing', async () => {
    store = await openTestStore();
    const values = [...Array.from({ length: 600 }, (_, i) => user(i)), user(3)];
    const failure = await store.tx((tx) => insertRecords(tx, USERS, values)).catch((err: unknown) => err);
    expect(uniqueConflict(failure)?.details).toEqual({ collection: 'users', fields: ['id'] });
    expect(await column(store, 'SELECT COUNT(*) AS n FROM users')).toEqual([0]);
  });
});

describe('recordsExisting', () => {
  it('answers in order for single and composite keys, over more than one question of 500', async () => {
    store = await openTestStore();
    const users = Array.from({ length: 700 }, (_, i) => user(i));
    await insertRecords(store, USERS, users);
    await store.run("INSERT INTO courses (id, title, description, status, created_at, updated_at) VALUES ('c1', 'C', '', 'draft', 'x', 'x')");
    await insertRecords(
      store,
      ENROLLMENTS,
      users.filter((_, i) => i % 3 === 0).map((u) => ({ courseId: 'c1', userId: u.id, role: 'student' as const })),
    );
    const ids = [...users.map((u) => u.id), 'u9999', 'u0003'];
    expect(
      await recordsExisting(
        store,
        USERS,
        ids.map((id) => [id]),
      ),
    ).toEqual([...users.map(() => true), false, true]);
    const pairs = [...users.map((u) => ['c1', u.id]), ['c2', 'u0000'], ['c1', 'u0003']];
    expect(await recordsExisting(store, ENROLLMENTS, pairs)).toEqual([...users.map((_, i) => i % 3 === 0), false, true]);
    expect(await recordsExisting(store, ENROLLMENTS, [])).toEqual([]);
  });
});
