/**
 * Gradebook reads shaped for the grading engine (published items, submissions of the
 * course's students) and the final-grade overrides with their append-only history.
 */
import { computeSetupChecks } from '../domain/grading/checks.js';
import type { GradeItem, GradeSubmission } from '../domain/grading/types.js';
import { AppError } from '../errors.js';
import type { FinalGradeHistoryValue, FinalGradeValue, GradebookSetupValue } from '../schemas/gradebook.js';
import type { Store } from './db.js';
import { getGradebookSetup } from './gradebook-setups.js';
import { FINAL_GRADE_HISTORY, FINAL_GRADES, insertRecord, type Row } from './tables.js';

/** A course's setup; every course has one from the moment it exists. */
export function loadSetup(store: Store, courseId: string): GradebookSetupValue {
  const setup = getGradebookSetup(store, courseId);
  if (!setup) throw new AppError('not-found', `Course ${JSON.stringify(courseId)} has no gradebook setup.`);
  return setup;
}

/** Open (not dismissed) setup checks of a course now: the gradebook's and readiness item 3.1's. */
export function openSetupChecks(store: Store, courseId: string, now: string) {
  return computeSetupChecks({ setup: loadSetup(store, courseId), items: publishedItems(store, courseId), now }).filter((c) => !c.dismissed);
}

// The grading engine's input shape: the store returns exactly what computeCourseGrades takes.
export type GradeItemRow = GradeItem;

/** The course's published assignments, in course item order. */
export function publishedItems(store: Store, courseId: string): GradeItemRow[] {
  return store
    .stmt(
      `SELECT a.id, a.title, a.category_id AS categoryId, a.points, a.due_at AS dueAt, a.module_id AS moduleId,
              m.position AS modulePosition, a.position
       FROM assignments a JOIN modules m ON m.id = a.module_id
       WHERE a.course_id = ? AND a.status = 'published'
       ORDER BY m.position, m.id, a.position, a.id`,
    )
    .all(courseId) as GradeItemRow[];
}

/**
 * Submissions to the course's assignments (any status), of one student or of all,
 * streamed through one reused object: copy what you keep.
 */
export function* courseSubmissions(store: Store, courseId: string, studentId?: string): Generator<GradeSubmission> {
  const sql = `SELECT s.assignment_id, s.student_id, s.attempt, s.submitted_at, s.score, s.released_at
     FROM submissions s JOIN assignments a ON a.id = s.assignment_id WHERE a.course_id = ?`;
  const rows = (
    studentId === undefined ? store.stmt(sql).raw(true).iterate(courseId) : store.stmt(`${sql} AND s.student_id = ?`).raw(true).iterate(courseId, studentId)
  ) as IterableIterator<[string, string, number, string, number | null, string | null]>;
  const out: GradeSubmission = { assignmentId: '', studentId: '', attempt: 0, submittedAt: '', score: null, releasedAt: null };
  for (const r of rows) {
    out.assignmentId = r[0];
    out.studentId = r[1];
    out.attempt = r[2];
    out.submittedAt = r[3];
    out.score = r[4];
    out.releasedAt = r[5];
    yield out;
  }
}

export function getFinalGrade(store: Store, courseId: string, studentId: string): FinalGradeValue | null {
  const row = store.stmt('SELECT * FROM final_grades WHERE course_id = ? AND student_id = ?').get(courseId, studentId) as Row | undefined;
  return row ? FINAL_GRADES.fromRow(row) : null;
}

export function listFinalGrades(store: Store, courseId: string): FinalGradeValue[] {
  return (store.stmt('SELECT * FROM final_grades WHERE course_id = ? ORDER BY student_id').all(courseId) as Row[]).map(FINAL_GRADES.fromRow);
}

export function putFinalGrade(store: Store, f: FinalGradeValue): void {
  insertRecord(store, FINAL_GRADES, f, 'upsert');
}

export function appendFinalGradeHistory(store: Store, h: FinalGradeHistoryValue): void {
  insertRecord(store, FINAL_GRADE_HISTORY, h);
}

export function finalGradeHistory(store: Store, courseId: string, studentId: string): FinalGradeHistoryValue[] {
  return (store.stmt('SELECT * FROM final_grade_history WHERE course_id = ? AND student_id = ? ORDER BY version, seq').all(courseId, studentId) as Row[]).map(
    FINAL_GRADE_HISTORY.fromRow,
  );
}

/** Whether the student's history already holds an entry with this version (import never appends one twice). */
export function hasFinalGradeHistoryVersion(store: Store, courseId: string, studentId: string, version: number): boolean {
  return (
    store.stmt('SELECT 1 AS x FROM final_grade_history WHERE course_id = ? AND student_id = ? AND version = ?').get(courseId, studentId, version) !== undefined
  );
}

/** The highest version the student's history holds (0 when none). */
export function latestFinalGradeHistoryVersion(store: Store, courseId: string, studentId: string): number {
  return (
    store.stmt('SELECT COALESCE(MAX(version), 0) AS v FROM final_grade_history WHERE course_id = ? AND student_id = ?').get(courseId, studentId) as {
      v: number;
    }
  ).v;
}
