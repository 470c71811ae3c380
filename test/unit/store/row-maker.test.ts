import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rowMaker } from '../../../src/store/sqlite-dialect.js';

describe('rowMaker', () => {
  it('makes the row object better-sqlite3 would, keys in column order', () => {
    const make = rowMaker(['id', 'name', 'score']);
    const row = make(['u1', 'Ada', 9.5]);
    expect(row).toEqual({ id: 'u1', name: 'Ada', score: 9.5 });
    expect(Object.keys(row)).toEqual(['id', 'name', 'score']);
  });

  it('matches better-sqlite3 on repeated names, quotes and a __proto__ column', () => {
    const db = new Database(':memory:');
    try {
      const sql = `SELECT 1 AS a, 2 AS "it's ""odd""", 3 AS a, 4 AS "__proto__", 5 AS "line
break", NULL AS "ü"`;
      const expected = db.prepare(sql).get() as Record<string, unknown>;
      const raw = db.prepare(sql).raw(true);
      const { ['__proto__']: proto, ...row } = rowMaker(raw.columns().map((c) => c.name))(raw.get() as unknown[]);
      expect(row).toEqual(expected);
      expect(Object.keys(row)).toEqual(Object.keys(expected));
      expect(row.a).toBe(3);
      // better-sqlite3 hands a __proto__ column to the prototype setter, which drops a
      // number; rowMaker keeps it as an own property and leaves the prototype alone.
      expect(proto).toBe(4);
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    } finally {
      db.close();
    }
  });

  it('makes the same rows where code generation from strings is off (the build, under node --disallow-code-generation-from-strings)', () => {
    const built = pathToFileURL(join(import.meta.dirname, '../../../dist/store/sqlite-dialect.js')).href;
    const script = `import { rowMaker } from ${JSON.stringify(built)};
      const row = rowMaker(['a', 'b', 'a', '__proto__'])([1, 2, 3, 4]);
      console.log(JSON.stringify({ keys: Object.keys(row), row, proto: Object.getPrototypeOf(row) === Object.prototype }));`;
    const out = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ keys: ['a', 'b', '__proto__'], row: { a: 3, b: 2, ['__proto__']: 4 }, proto: true });
  });
});

describe('rows after the schema changed under a prepared statement', () => {
  it('a column this connection added shows in the next read; one another program added, after its commit is seen', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { openSqlite } = await import('../../../src/store/db.js');
    const dir = mkdtempSync(join(tmpdir(), 'cb-rowmaker-'));
    const path = join(dir, 'x.db');
    const store = openSqlite(path);
    const other = openSqlite(path);
    try {
      await store.run('CREATE TABLE t (a TEXT, b TEXT)');
      await store.run("INSERT INTO t VALUES ('1', '2')");
      expect(await store.get('SELECT * FROM t')).toEqual({ a: '1', b: '2' });
      await store.run("ALTER TABLE t ADD COLUMN c TEXT DEFAULT '3'");
      expect(await store.get('SELECT * FROM t')).toEqual({ a: '1', b: '2', c: '3' });
      // Another program rebuilds the table with its columns in another order (same count).
      store.revisions();
      await other.run('CREATE TABLE t2 (c TEXT, b TEXT, a TEXT)');
      await other.run('INSERT INTO t2 SELECT c, b, a FROM t');
      await other.run('DROP TABLE t');
      await other.run('ALTER TABLE t2 RENAME TO t');
      store.revisions(); // as serve does at each request: sees the commit, and the new schema
      expect(await store.get('SELECT * FROM t')).toEqual({ c: '3', b: '2', a: '1' });
      expect(Object.keys((await store.get('SELECT * FROM t')) as object)).toEqual(['c', 'b', 'a']);
    } finally {
      await store.close();
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
