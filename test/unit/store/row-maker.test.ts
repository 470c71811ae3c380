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
});
