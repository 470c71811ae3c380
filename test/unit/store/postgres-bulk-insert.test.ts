import { describe, expect, it } from 'vitest';
import { bulkStatements, MAX_PARAMETERS } from '../../../src/store/postgres-bulk-insert.js';

const INSERT_USERS = 'INSERT INTO users (id, name, email, admin) VALUES ($1, $2, $3, $4)';
const UPSERT_CELLS =
  'INSERT INTO grade_cells (course_id, student_id, data) VALUES ($1, $2, $3) ON CONFLICT (course_id, student_id) DO UPDATE SET data = excluded.data';

const users = (n: number) => Array.from({ length: n }, (_, i) => [`u${i}`, `User ${i}`, null, 0]);

describe('bulkStatements', () => {
  it('writes a single-row INSERT as one multi-row INSERT, numbering the parameters in row order', () => {
    expect(bulkStatements(INSERT_USERS, users(3))).toEqual([
      {
        sql: 'INSERT INTO users (id, name, email, admin) VALUES ($1, $2, $3, $4), ($5, $6, $7, $8), ($9, $10, $11, $12)',
        params: ['u0', 'User 0', null, 0, 'u1', 'User 1', null, 0, 'u2', 'User 2', null, 0],
      },
    ]);
  });

  it('keeps each batch to maxRows rows, in order', () => {
    const statements = bulkStatements(INSERT_USERS, users(7), 3);
    expect(statements.map((s) => s.params.length / 4)).toEqual([3, 3, 1]);
    expect(statements.flatMap((s) => s.params.filter((_, i) => i % 4 === 0))).toEqual(users(7).map((u) => u[0]));
    expect(statements[2]!.sql).toBe('INSERT INTO users (id, name, email, admin) VALUES ($1, $2, $3, $4)');
  });

  it('never puts more than 65,535 parameters in one statement, however wide the row', () => {
    const width = 1000;
    const sql = `INSERT INTO wide (${Array.from({ length: width }, (_, i) => `c${i}`).join(', ')}) VALUES (${Array.from({ length: width }, (_, i) => `$${i + 1}`).join(', ')})`;
    const rows = Array.from({ length: 70 }, (_, r) => Array.from({ length: width }, (_, c) => r * width + c));
    const statements = bulkStatements(sql, rows);
    expect(statements.every((s) => s.params.length <= MAX_PARAMETERS)).toBe(true);
    expect(statements.map((s) => s.params.length / width)).toEqual([65, 5]);
    expect(statements.flatMap((s) => s.params)).toEqual(rows.flat());
  });

  it('starts a new batch of an upsert where a key repeats, so the later row still wins', () => {
    const rows = [
      ['c1', 's1', 'first'],
      ['c1', 's2', 'x'],
      ['c2', 's1', 'other course'],
      ['c1', 's1', 'second'],
    ];
    const statements = bulkStatements(UPSERT_CELLS, rows);
    expect(statements.map((s) => s.params)).toEqual([rows.slice(0, 3).flat(), rows[3]]);
    expect(statements[0]!.sql).toBe(
      'INSERT INTO grade_cells (course_id, student_id, data) VALUES ($1, $2, $3), ($4, $5, $6), ($7, $8, $9) ON CONFLICT (course_id, student_id) DO UPDATE SET data = excluded.data',
    );
  });

  it('a plain INSERT is not split at a repeated key: the duplicate fails as it would row by row', () => {
    expect(bulkStatements(INSERT_USERS, [users(1)[0]!, users(1)[0]!])).toHaveLength(1);
  });

  it('runs any other statement once per row, unchanged', () => {
    const rows = [
      [1, 'a'],
      [2, 'b'],
    ];
    for (const sql of [
      'UPDATE users SET name = $2 WHERE id = $1',
      'INSERT INTO users (id, name) SELECT $1, $2',
      'INSERT INTO users (id, name) VALUES ($2, $1)',
      'INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = $2',
      'INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      'INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT (nope) DO UPDATE SET name = excluded.name',
    ]) {
      expect(bulkStatements(sql, rows)).toEqual(rows.map((params) => ({ sql, params })));
    }
  });

  it('rows of another width than the statement run one by one (PostgreSQL then names the mistake)', () => {
    expect(bulkStatements(INSERT_USERS, [['u1', 'A', null]])).toEqual([{ sql: INSERT_USERS, params: ['u1', 'A', null] }]);
  });

  it('no rows, no statement', () => {
    expect(bulkStatements(INSERT_USERS, [])).toEqual([]);
  });
});
