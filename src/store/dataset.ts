/**
 * Whole-store reads and writes for dataset files (fixtures, import, dump). Rows are written
 * with column lists from this file only; with `replace`, a record whose key exists is
 * updated in place (no delete, so nothing cascades away).
 */
import type { Store } from './db.js';
import {
  assignmentFromRow, attestationFromRow, blockFromRow, blockContentOf, certificateFromRow, courseFromRow, enrollmentFromRow,
  finalGradeFromRow, finalGradeHistoryFromRow, findingFromRow, lessonFromRow, moduleFromRow, reportingLineFromRow, type Row,
  submissionFromRow, templateFromRow, userFromRow,
} from './rows.js';

export function writeRow(store: Store, table: string, row: Record<string, unknown>, key: string[], replace: boolean): void {
  const cols = Object.keys(row);
  const placeholders = cols.map(() => '?').join(', ');
  const update = cols.filter((c) => !key.includes(c)).map((c) => `${c} = excluded.${c}`).join(', ');
  const sql =
    replace && update
      ? `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${placeholders}) ON CONFLICT(${key.join(', ')}) DO UPDATE SET ${update}`
      : `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${placeholders})`;
  store.stmt(sql).run(...cols.map((c) => row[c]));
}

/** Which of `ids` already exist in `table` (by its `id` column, or the given key columns). */
export function existingKeys(store: Store, table: string, keyCols: string[], keys: unknown[][]): Set<string> {
  const found = new Set<string>();
  const sql = `SELECT 1 AS x FROM ${table} WHERE ${keyCols.map((c) => `${c} = ?`).join(' AND ')}`;
  for (const k of keys) if (store.stmt(sql).get(...k)) found.add(JSON.stringify(k));
  return found;
}

export function lookupColumn(store: Store, table: string, column: string, id: string): unknown {
  const row = store.stmt(`SELECT ${column} AS v FROM ${table} WHERE id = ?`).get(id) as { v: unknown } | undefined;
  return row?.v;
}

/** Positions already taken under one parent. */
export function siblingPositions(store: Store, table: string, parentCol: string, parentId: string): { id: string; position: number }[] {
  return store.stmt(`SELECT id, position FROM ${table} WHERE ${parentCol} = ?`).all(parentId) as { id: string; position: number }[];
}

const all = (store: Store, sql: string): Row[] => store.stmt(sql).all() as Row[];
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.parse(v as string));

/** Every record in the store, in the dataset format, each collection in a stable order. */
export function readEverything(store: Store): Record<string, unknown> {
  const instructions = new Map<string, unknown[]>();
  for (const r of all(store, 'SELECT * FROM blocks WHERE assignment_id IS NOT NULL ORDER BY assignment_id, position')) {
    const list = instructions.get(r.assignment_id as string) ?? [];
    list.push(blockFromRow(r));
    instructions.set(r.assignment_id as string, list);
  }
  return {
    coursebook: 1,
    users: all(store, 'SELECT * FROM users ORDER BY id').map(userFromRow),
    tokens: all(store, 'SELECT * FROM tokens ORDER BY id').map((r) => ({
      id: r.id, tokenSha256: r.token_sha256, userId: r.user_id, scopes: json(r.scopes), name: r.name,
      createdAt: r.created_at, expiresAt: r.expires_at, revokedAt: r.revoked_at, lastUsedAt: r.last_used_at,
    })),
    courses: all(store, 'SELECT * FROM courses ORDER BY id').map(courseFromRow),
    enrollments: all(store, 'SELECT * FROM enrollments ORDER BY course_id, user_id').map(enrollmentFromRow),
    modules: all(store, 'SELECT * FROM modules ORDER BY id').map(moduleFromRow),
    lessons: all(store, 'SELECT * FROM lessons ORDER BY id').map(lessonFromRow),
    blocks: all(store, 'SELECT * FROM blocks WHERE lesson_id IS NOT NULL ORDER BY id').map(blockFromRow),
    assignments: all(store, 'SELECT * FROM assignments ORDER BY id').map((r) => ({ ...assignmentFromRow(r), instructions: instructions.get(r.id as string) ?? [] })),
    submissions: all(store, 'SELECT * FROM submissions ORDER BY id').map(submissionFromRow),
    gradebookSetups: all(store, 'SELECT setup FROM gradebook_setups ORDER BY course_id').map((r) => json(r.setup)),
    finalGrades: all(store, 'SELECT * FROM final_grades ORDER BY course_id, student_id').map(finalGradeFromRow),
    finalGradeHistory: all(store, 'SELECT * FROM final_grade_history ORDER BY course_id, student_id, version, seq').map(finalGradeHistoryFromRow),
    rubrics: all(store, 'SELECT body FROM rubrics ORDER BY id').map((r) => json(r.body)),
    findings: all(store, 'SELECT * FROM findings ORDER BY course_id, item_id').map(findingFromRow),
    attestations: all(store, 'SELECT * FROM attestations ORDER BY course_id, rubric_id, item_id').map(attestationFromRow),
    templates: all(store, 'SELECT * FROM templates ORDER BY id').map(templateFromRow),
    certificates: all(store, 'SELECT * FROM certificates ORDER BY id').map(certificateFromRow),
    reportingLines: all(store, 'SELECT * FROM reporting_lines ORDER BY manager_id, report_id').map(reportingLineFromRow),
  };
}

export { blockContentOf };
