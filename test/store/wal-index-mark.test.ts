// The SQLite store's mark of other connections' commits (wal-index-mark.ts otherCommits): read
// from the WAL index header, one pread, instead of PRAGMA data_version's read transaction.
// It must move after every commit another connection makes (a CLI call, a second serve, any
// program), and stay put while they only read, or serve's read cache would answer stale
// data or nothing at all.
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { otherCommits } from '../../src/store/wal-index-mark.js';

const dirs: string[] = [];
const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const folder = () => {
  const d = mkdtempSync(join(tmpdir(), 'cb-wal-mark-'));
  dirs.push(d);
  return d;
};
const connect = (path: string, wal = true) => {
  const db = new Database(path);
  open.push(db);
  if (wal) db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE IF NOT EXISTS t (n INTEGER)');
  return db;
};

/** `mine`'s mark reads `source`, and moves when `theirs` commits. */
function expectSeesTheirCommit(mine: Database.Database, theirs: Database.Database, source: 'wal-index' | 'data_version') {
  const others = otherCommits(mine);
  try {
    expect(others.source).toBe(source);
    const before = others.mark();
    theirs.prepare('INSERT INTO t VALUES (7)').run();
    expect(others.mark()).not.toBe(before);
  } finally {
    others.close();
  }
}

describe("the mark of other connections' commits", () => {
  it('reads the WAL index on a WAL file, and moves with each commit of another connection, not with reads', () => {
    const path = join(folder(), 'x.db');
    const mine = connect(path);
    const theirs = connect(path);
    const others = otherCommits(mine);
    try {
      expect(others.source).toBe('wal-index');
      let last = others.mark();
      theirs.prepare('SELECT count(*) FROM t').get();
      mine.prepare('SELECT count(*) FROM t').get();
      expect(others.mark()).toBe(last);
      for (let i = 0; i < 50; i++) {
        theirs.prepare('INSERT INTO t VALUES (?)').run(i);
        const now = others.mark();
        expect(now).not.toBe(last);
        last = now;
      }
      // A commit inside an explicit transaction, and one by a connection that then closes.
      theirs.transaction(() => theirs.prepare('INSERT INTO t VALUES (1)').run())();
      expect(others.mark()).not.toBe(last);
      last = others.mark();
      const passerBy = new Database(path);
      passerBy.prepare('DELETE FROM t WHERE n = 1').run();
      passerBy.close();
      expect(others.mark()).not.toBe(last);
    } finally {
      others.close();
    }
  });

  it('closes its file once: a second close leaves alone a file opened in between', () => {
    const path = join(folder(), 'twice.db');
    const others = otherCommits(connect(path));
    expect(others.source).toBe('wal-index');
    others.close();
    const other = openSync(path, 'r');
    try {
      others.close();
      expect(fstatSync(other).isFile()).toBe(true);
    } finally {
      closeSync(other);
    }
  });

  it("is not moved by this connection's own commits, but by any other commit around them", () => {
    const path = join(folder(), 'own.db');
    const mine = connect(path);
    const theirs = connect(path);
    const others = otherCommits(mine);
    const own = () => {
      mine.prepare('INSERT INTO t VALUES (0)').run();
      others.afterOwnCommit();
    };
    try {
      let last = others.mark();
      for (let i = 0; i < 5; i++) own();
      expect(others.mark()).toBe(last);
      const orders: [string, () => void][] = [
        ['theirs, then ours', () => (theirs.prepare('INSERT INTO t VALUES (1)').run(), own())],
        // Theirs lands between our commit and the store's look at it.
        [
          'ours, theirs, then the look',
          () => (mine.prepare('INSERT INTO t VALUES (0)').run(), theirs.prepare('INSERT INTO t VALUES (1)').run(), others.afterOwnCommit()),
        ],
        ['ours, then theirs', () => (own(), theirs.prepare('INSERT INTO t VALUES (1)').run())],
      ];
      for (const [, happen] of orders) {
        happen();
        const now = others.mark();
        expect(now).not.toBe(last);
        last = now;
      }
    } finally {
      others.close();
    }
  });

  it('finds the index of a file opened through a symbolic link (SQLite names it after the real file)', () => {
    const dir = folder();
    const real = join(dir, 'real.db');
    connect(real).close();
    const link = join(dir, 'link.db');
    symlinkSync(real, link);
    expectSeesTheirCommit(connect(link), connect(real), 'wal-index');
  });

  it('falls back to data_version on a file that is not in WAL mode', () => {
    const path = join(folder(), 'rollback.db');
    expectSeesTheirCommit(connect(path, false), connect(path, false), 'data_version');
  });

  it('any mix of commits, reads and checkpoints (the WAL restarting included): a commit always moves it, reads alone never do', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('commit', 'read', 'passive', 'truncate', 'restart'), { minLength: 1, maxLength: 40 }), (steps) => {
        const path = join(folder(), 'mix.db');
        const mine = connect(path);
        const theirs = connect(path);
        const others = otherCommits(mine);
        try {
          let last = others.mark();
          for (const step of steps) {
            if (step === 'commit') theirs.prepare('INSERT INTO t VALUES (1)').run();
            else if (step === 'read') theirs.prepare('SELECT count(*) FROM t').get();
            else theirs.pragma(`wal_checkpoint(${step.toUpperCase()})`);
            const now = others.mark();
            if (step === 'commit') expect(now).not.toBe(last);
            if (step === 'read') expect(now).toBe(last);
            last = now;
          }
        } finally {
          others.close();
          mine.close();
          theirs.close();
        }
      }),
      { numRuns: 30 },
    );
  });
});
