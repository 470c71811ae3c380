// serve's checkpoint thread (wal-checkpointer.ts): the WAL's pages are copied into the
// database file by a thread of its own, soon after the store's commits, instead of by the
// committing connection every 1,000 pages. Read from the WAL index itself (the `-shm` file):
// its header's frame count (mxFrame) and the checkpoint's progress (nBackfill).
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type Store } from '../../src/store/db.js';
import { BACKSTOP_PAGES, SQLITE_DEFAULT_AUTOCHECKPOINT } from '../../src/store/wal-checkpointer.js';
import { otherCommits } from '../../src/store/wal-index-mark.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const storePath = () => {
  const d = mkdtempSync(join(tmpdir(), 'cb-checkpointer-'));
  dirs.push(d);
  return join(d, 'store.db');
};

/** The WAL index's frame count and how many of those frames a checkpoint has copied. */
function walProgress(path: string): { frames: number; copied: number } {
  const fd = openSync(`${path}-shm`, 'r');
  try {
    const bytes = Buffer.alloc(100);
    readSync(fd, bytes, 0, 100, 0);
    // WalIndexHdr.mxFrame at 16; WalCkptInfo.nBackfill right after the header's two copies (96).
    return { frames: bytes.readUInt32LE(16), copied: bytes.readUInt32LE(96) };
  } finally {
    closeSync(fd);
  }
}

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const autocheckpoint = async (store: Store) => ((await store.get('PRAGMA wal_autocheckpoint')) as { wal_autocheckpoint: number }).wal_autocheckpoint;

async function writeUsers(store: Store, from: number, count: number): Promise<void> {
  for (let i = from; i < from + count; i++)
    await store.tx((tx) => tx.run('INSERT INTO users (id, name, email, admin) VALUES (?, ?, ?, 0)', `usr_${i}`, `User ${i}`, `u${i}@example.edu`));
}

describe("serve's checkpoint thread", () => {
  it('copies committed pages into the database file soon after the commit, with none of them checkpointed by the store itself', async () => {
    const path = storePath();
    const store = openSqlite(path, undefined, { checkpointThread: { onFailure: (err) => expect.fail(err.message) } });
    stores.push(store);
    expect(await autocheckpoint(store)).toBe(BACKSTOP_PAGES);
    await writeUsers(store, 0, 5);
    await until(() => {
      const { frames, copied } = walProgress(path);
      return frames > 0 && copied === frames;
    });
  });

  it('without it, a few commits stay in the WAL until 1,000 pages (the control: what the test above would see without the thread)', async () => {
    const path = storePath();
    const store = openSqlite(path);
    stores.push(store);
    expect(await autocheckpoint(store)).toBe(SQLITE_DEFAULT_AUTOCHECKPOINT);
    await writeUsers(store, 0, 5);
    await new Promise((r) => setTimeout(r, 100));
    const { frames, copied } = walProgress(path);
    expect(frames).toBeGreaterThan(0);
    expect(copied).toBe(0);
  });

  it("is not taken for another program's commit: the store's mark of other commits stays put while it checkpoints", async () => {
    const path = storePath();
    const store = openSqlite(path, undefined, { checkpointThread: { onFailure: (err) => expect.fail(err.message) } });
    stores.push(store);
    await writeUsers(store, 0, 3);
    const reader = new Database(path, { readonly: true });
    try {
      const others = otherCommits(reader);
      const before = others.mark();
      await until(() => {
        const { frames, copied } = walProgress(path);
        return frames > 0 && copied === frames;
      });
      expect(others.mark()).toBe(before);
      others.close();
    } finally {
      reader.close();
    }
  });

  it('stops with the store, before its connection closes: the last close checkpoints and removes the WAL', async () => {
    const path = storePath();
    const store = openSqlite(path, undefined, { checkpointThread: { onFailure: (err) => expect.fail(err.message) } });
    await writeUsers(store, 0, 3);
    expect(existsSync(`${path}-wal`)).toBe(true);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const again = new Database(path, { readonly: true });
    expect(again.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 3 });
    again.close();
  });

  it('a store closed at once, before its thread has started, stops it and removes the WAL', async () => {
    const path = storePath();
    const store = openSqlite(path, undefined, { checkpointThread: { onFailure: (err) => expect.fail(err.message) } });
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('a thread that cannot open the file is reported once, and the store checkpoints for itself again', async () => {
    const path = storePath();
    const failures: string[] = [];
    const store = openSqlite(path, undefined, { checkpointThread: { onFailure: (err) => failures.push(err.message) } });
    stores.push(store);
    // The thread opens the file only once it has started (tens of milliseconds): by then the
    // name is gone, while the store's own connection keeps the file open.
    unlinkSync(path);
    await until(() => failures.length > 0);
    expect(failures).toHaveLength(1);
    expect(await autocheckpoint(store)).toBe(SQLITE_DEFAULT_AUTOCHECKPOINT);
    await writeUsers(store, 0, 2);
    expect(((await store.get('SELECT count(*) AS n FROM users')) as { n: number }).n).toBe(2);
  });

  it('is not started for a store in memory', async () => {
    const store = openSqlite(':memory:', undefined, { checkpointThread: { onFailure: (err) => expect.fail(err.message) } });
    stores.push(store);
    expect(await autocheckpoint(store)).toBe(SQLITE_DEFAULT_AUTOCHECKPOINT);
  });
});
