/**
 * Group commit on SQLite (store/group-commit.ts): transactions that arrive together share one
 * COMMIT, yet each runs alone, is atomic, and is answered only once what it wrote is stored.
 * A second connection to the same file (another process's view) shows what is committed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/db.js';
import { MAX_GROUP_MEMBERS } from '../../src/store/group-commit.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A store file with a scratch table `t`, and another connection to it (what other processes see). */
async function storeAndObserver(): Promise<{ store: Store; committed: () => number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'cb-group-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const store = await openStore(join(dir, 'x.db'));
  cleanups.push(() => store.close());
  await store.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)');
  await store.run('CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES t(id))');
  const observer = new Database(join(dir, 'x.db'), { readonly: true });
  cleanups.push(() => {
    observer.close();
  });
  const rows = observer.prepare('SELECT id FROM t ORDER BY id').pluck();
  return { store, committed: () => rows.all() as number[] };
}

const insert = (store: Store, id: number) => store.run('INSERT INTO t (id, v) VALUES (?, 0)', id);

/** A transaction that counts each run of its function in runs[i], then does its work. */
const counted = <T>(store: Store, runs: number[], i: number, work: (tx: Store) => Promise<T>) =>
  store.tx(async (tx) => {
    runs[i]!++;
    return work(tx);
  });

describe('group commit (SQLite)', () => {
  it('transactions that arrive together share one COMMIT, and each is answered after it', async () => {
    const { store, committed } = await storeAndObserver();
    const seenInside: number[][] = [];
    const answeredWith: number[][] = [];
    const write = (id: number) =>
      store
        .tx(async (tx) => {
          await insert(tx, id);
          // Another connection sees none of the group until it commits: not even members done before this one.
          seenInside.push(committed());
          return id;
        })
        .then((value) => {
          answeredWith.push(committed());
          return value;
        });
    expect(await Promise.all([write(1), write(2), write(3)])).toEqual([1, 2, 3]);
    expect(seenInside).toEqual([[], [], []]);
    // Every answer came after the one COMMIT: each saw all three stored.
    expect(answeredWith).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });

  it('a transaction that fails takes back only its own writes, and is answered after the others commit', async () => {
    const { store, committed } = await storeAndObserver();
    const results = await Promise.allSettled([
      store.tx((tx) => insert(tx, 1)),
      store.tx(async (tx) => {
        await insert(tx, 2);
        throw new Error('the second changed its mind');
      }),
      store.tx((tx) => insert(tx, 3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('the second changed its mind');
    expect(committed()).toEqual([1, 3]);
  });

  it('when the first transaction of a group fails, the others are stored all the same', async () => {
    const { store, committed } = await storeAndObserver();
    const results = await Promise.allSettled([
      store.tx(async (tx) => {
        await insert(tx, 1);
        throw new Error('the first changed its mind');
      }),
      store.tx((tx) => insert(tx, 2)),
      store.tx((tx) => insert(tx, 3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect((results[0] as PromiseRejectedResult).reason.message).toBe('the first changed its mind');
    expect(committed()).toEqual([2, 3]);
  });

  it('members run one after another: read-check-write stays serial (no lost update)', async () => {
    const { store } = await storeAndObserver();
    await insert(store, 1);
    const increment = () =>
      store.tx(async (tx) => {
        const { v } = (await tx.get<{ v: number }>('SELECT v FROM t WHERE id = 1'))!;
        await Promise.resolve(); // a turn of the microtask queue between the read and the write
        await tx.run('UPDATE t SET v = ? WHERE id = 1', v + 1);
      });
    await Promise.all(Array.from({ length: 150 }, increment));
    expect((await store.get<{ v: number }>('SELECT v FROM t WHERE id = 1'))!.v).toBe(150);
  });

  it('more transactions than one group holds commit in several groups, all of them stored', async () => {
    const { store, committed } = await storeAndObserver();
    const count = MAX_GROUP_MEMBERS * 2 + 5;
    await Promise.all(Array.from({ length: count }, (_, i) => store.tx((tx) => insert(tx, i + 1))));
    expect(committed()).toHaveLength(count);
  });

  it('a failed COMMIT fails every member of the group, and stores nothing of it', async () => {
    const { store, committed } = await storeAndObserver();
    const results = await Promise.allSettled([
      store.tx((tx) => insert(tx, 1)),
      store.tx(async (tx) => {
        // A foreign key checked at COMMIT (deferred for this transaction): the COMMIT fails.
        await tx.run('PRAGMA defer_foreign_keys = ON');
        await tx.run('INSERT INTO child (id, parent) VALUES (1, 999)');
      }),
      store.tx((tx) => insert(tx, 3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const r of results) expect(String((r as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committed()).toEqual([]);
    // The store goes on: the next transaction starts a new group.
    await store.tx((tx) => insert(tx, 4));
    expect(committed()).toEqual([4]);
  });

  it('when the whole transaction is rolled back under a member, that member fails and the others run again in a new group', async () => {
    const { store, committed } = await storeAndObserver();
    const runs = [0, 0, 0];
    const results = await Promise.allSettled([
      counted(store, runs, 0, async (tx) => {
        await insert(tx, 1);
      }),
      counted(store, runs, 1, async (tx) => {
        await insert(tx, 2);
        // What SQLite does on a full disk or an I/O error: the transaction is gone.
        await tx.run('ROLLBACK');
        throw new Error('disk full');
      }),
      counted(store, runs, 2, async (tx) => {
        await insert(tx, 3);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('disk full');
    // The first member's write went with the transaction, so it ran again; the third's turn
    // had not come, so it ran once, in the new group.
    expect(runs).toEqual([2, 1, 1]);
    expect(committed()).toEqual([1, 3]);
  });

  it('a member that fails after a completed write is taken back with the group, and the others run again and are stored', async () => {
    const { store, committed } = await storeAndObserver();
    const runs = [0, 0, 0];
    const results = await Promise.allSettled([
      counted(store, runs, 0, async (tx) => {
        await insert(tx, 1);
        return 'one';
      }),
      counted(store, runs, 1, async (tx) => {
        await insert(tx, 2);
        await insert(tx, 20);
        throw new Error('the second changed its mind after writing');
      }),
      counted(store, runs, 2, async (tx) => {
        await insert(tx, 3);
        return 'three';
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[0] as PromiseFulfilledResult<string>).value).toBe('one');
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('the second changed its mind after writing');
    expect(runs).toEqual([2, 1, 1]);
    expect(committed()).toEqual([1, 3]);
  });

  it('a member that fails without a completed write costs the others nothing: they run once and are stored', async () => {
    const { store, committed } = await storeAndObserver();
    await insert(store, 2);
    const runs = [0, 0, 0, 0];
    const results = await Promise.allSettled([
      counted(store, runs, 0, async (tx) => {
        await insert(tx, 1);
      }),
      // Refused by its own check, before writing.
      counted(store, runs, 1, async (tx) => {
        if ((await tx.get('SELECT 1 AS x FROM t WHERE id = 1')) !== undefined) throw new Error('1 is taken');
      }),
      // Its only write is refused by SQLite (the key is taken): the statement left nothing.
      counted(store, runs, 2, async (tx) => {
        await insert(tx, 2);
      }),
      counted(store, runs, 3, async (tx) => {
        await insert(tx, 3);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('1 is taken');
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE|PRIMARY KEY/);
    expect(runs).toEqual([1, 1, 1, 1]);
    expect(committed()).toEqual([1, 2, 3]);
  });

  it('a failure of its own is answered again from the new group when another member broke the first', async () => {
    const { store, committed } = await storeAndObserver();
    const runs = [0, 0, 0];
    const results = await Promise.allSettled([
      counted(store, runs, 0, async (tx) => {
        await insert(tx, 1);
      }),
      // Fails on what the first wrote: after the group breaks it runs again, and fails again.
      counted(store, runs, 1, async (tx) => {
        if ((await tx.get('SELECT 1 AS x FROM t WHERE id = 1')) !== undefined) throw new Error('1 is taken');
      }),
      counted(store, runs, 2, async (tx) => {
        await insert(tx, 5);
        throw new Error('breaks the group');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('1 is taken');
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('breaks the group');
    expect(runs).toEqual([2, 2, 1]);
    expect(committed()).toEqual([1]);
  });

  it('reads outside a transaction wait for the group to commit, and then see all of it', async () => {
    const { store } = await storeAndObserver();
    const writes = [1, 2, 3].map((id) => store.tx((tx) => insert(tx, id)));
    const read = store.all<{ id: number }>('SELECT id FROM t ORDER BY id');
    expect((await read).map((r) => r.id)).toEqual([1, 2, 3]);
    await Promise.all(writes);
  });
});
