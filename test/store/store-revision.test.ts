// Store.revisions: the marks serve's read cache keys on. It must move with every change a later
// read could see (this process's writes, a rolled-back one included, and other connections'
// commits to the same file) and with nothing else, and be null where it cannot be trusted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, openStore, type Store } from '../../src/store/db.js';
import { credentialWriters } from '../../src/store/sqlite-dialect.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDb = () => {
  const d = mkdtempSync(join(tmpdir(), 'cb-revision-'));
  dirs.push(d);
  return join(d, 'x.db');
};
const open = async (path: string) => {
  const store = await openStore(path);
  stores.push(store);
  return store;
};
/** The `all` revision (Store.revisions), or null. */
const revision = (store: Store) => store.revisions()?.all ?? null;
const addUser = (store: Store, id: string) => store.run("INSERT INTO users (id, name, admin) VALUES (?, 'Someone', 0)", id);

describe('Store.revision (SQLite)', () => {
  it('stays put across reads and moves with each write of this connection', async () => {
    const store = await open(tempDb());
    const r0 = revision(store);
    expect(r0).not.toBeNull();
    await store.all('SELECT * FROM users');
    await store.get('SELECT count(*) AS n FROM courses');
    expect(revision(store)).toBe(r0);
    await addUser(store, 'u1');
    const r1 = revision(store);
    expect(r1).not.toBe(r0);
    // An UPDATE that matches no row still counts: the mark is conservative, never late.
    await store.run("UPDATE users SET name = 'x' WHERE id = 'nobody'");
    expect(revision(store)).not.toBe(r1);
  });

  it('moves when a transaction commits and when one rolls back, and is null inside one', async () => {
    const store = await open(tempDb());
    const before = revision(store);
    let inside: string | null | undefined;
    await store.tx(async (tx) => {
      await addUser(tx, 'u1');
      inside = revision(tx);
    });
    expect(inside).toBeNull();
    const committed = revision(store);
    expect(committed).not.toBe(before);
    await expect(
      store.tx(async (tx) => {
        await addUser(tx, 'u2');
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(revision(store)).not.toBe(committed);
    const rehearsed = revision(store);
    await store.rehearse((tx) => addUser(tx, 'u3'));
    expect(revision(store)).not.toBe(rehearsed);
  });

  it("moves when another connection commits to the same file, another store's or another program's", async () => {
    const path = tempDb();
    const store = await open(path);
    const other = await open(path);
    const r0 = revision(store);
    await addUser(other, 'u1');
    const r1 = revision(store);
    expect(r1).not.toBe(r0);
    const raw = new Database(path);
    raw.prepare("INSERT INTO users (id, name, admin) VALUES ('u2', 'Raw', 0)").run();
    raw.close();
    expect(revision(store)).not.toBe(r1);
    // ownChanges counts this process's statements on the store only.
    const own = store.ownChanges();
    await addUser(other, 'u3');
    expect(store.ownChanges()).toBe(own);
    await addUser(store, 'u4');
    expect(store.ownChanges()).toBeGreaterThan(own);
  });

  it('an in-memory store and an opened image count their own changes (nothing else can reach them)', async () => {
    const store = await open(':memory:');
    const r0 = revision(store);
    await addUser(store, 'u1');
    expect(revision(store)).not.toBe(r0);
    const image = openSqlite(':memory:', store.snapshot!());
    stores.push(image);
    const i0 = revision(image);
    await image.all('SELECT * FROM users');
    expect(revision(image)).toBe(i0);
    await addUser(image, 'u2');
    expect(revision(image)).not.toBe(i0);
  });
});

describe('the credentials revision (SQLite)', () => {
  const credentials = (store: Store) => store.revisions()!.credentials;

  it('stays put across writes that cannot change a token or a user, and moves with each that can', async () => {
    const store = await open(tempDb());
    const c0 = credentials(store);
    const a0 = revision(store);
    await store.run("INSERT INTO courses (id, title, created_at, updated_at) VALUES ('c1', 'One', 'x', 'x')");
    await store.tx((tx) => tx.run("UPDATE courses SET title = 'Two' WHERE id = 'c1'"));
    expect(revision(store)).not.toBe(a0);
    expect(credentials(store)).toBe(c0);
    expect(store.ownChanges('credentials')).toBe(0);
    const moves = [
      () => addUser(store, 'u1'),
      () => store.run("INSERT INTO tokens (id, user_id, token_sha256, name, scopes, created_at) VALUES ('t1', 'u1', 'h', '', '[]', 'x')"),
      () => store.run("UPDATE tokens SET revoked_at = 'x' WHERE id = 't1'"),
      // A statement the store cannot read a table from counts as one that may.
      () => store.run("WITH gone AS (SELECT 'nobody' AS id) DELETE FROM courses WHERE id IN (SELECT id FROM gone)"),
      () => store.run("DELETE FROM users WHERE id = 'u1'"),
    ];
    let last = c0;
    for (const write of moves) {
      await write();
      expect(credentials(store)).not.toBe(last);
      last = credentials(store);
    }
    let inside: unknown;
    await store.tx(async (tx) => {
      inside = tx.revisions();
    });
    expect(inside).toBeNull();
  });

  it("moves with another connection's commit, whatever it wrote", async () => {
    const path = tempDb();
    const store = await open(path);
    const other = await open(path);
    const c0 = credentials(store);
    await other.run("INSERT INTO courses (id, title, created_at, updated_at) VALUES ('c9', 'Nine', 'x', 'x')");
    expect(credentials(store)).not.toBe(c0);
  });

  it('widens to any table whose trigger names a credential table, or that a credential table cascades from', () => {
    const db = new Database(':memory:');
    try {
      db.exec(`
        CREATE TABLE users (id TEXT PRIMARY KEY);
        CREATE TABLE tokens (id TEXT PRIMARY KEY, user_id TEXT REFERENCES users(id) ON DELETE CASCADE, org TEXT REFERENCES orgs(id) ON DELETE SET NULL);
        CREATE TABLE orgs (id TEXT PRIMARY KEY);
        CREATE TABLE audit (id TEXT);
        CREATE TABLE purges (id TEXT);
        CREATE TRIGGER purge AFTER INSERT ON purges BEGIN DELETE FROM Tokens WHERE id = NEW.id; END;
        CREATE TRIGGER note AFTER INSERT ON orgs BEGIN INSERT INTO audit VALUES (NEW.id); END;
      `);
      expect([...credentialWriters(db)].sort()).toEqual(['orgs', 'purges', 'tokens', 'users']);
    } finally {
      db.close();
    }
  });
});
