/**
 * Gradebook reads shaped for the grading engine (published items, submissions of the
 * course's students) and the final-grade overrides with their append-only history.
 */
import type { GradeItem, GradeSubmission } from '../domain/grading/types.js';
import type { Store } from './db.js';
import { type FinalGradeHistoryValue, type FinalGradeValue, finalGradeFromRow, finalGradeHistoryFromRow, type Row } from './rows.js';

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
    studentId === undefined
      ? store.stmt(sql).raw(true).iterate(courseId)
      : store.stmt(`${sql} AND s.student_id = ?`).raw(true).iterate(courseId, studentId)
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
  return row ? finalGradeFromRow(row) : null;
}

export function listFinalGrades(store: Store, courseId: string): FinalGradeValue[] {
  return (store.stmt('SELECT * FROM final_grades WHERE course_id = ? ORDER BY student_id').all(courseId) as Row[]).map(finalGradeFromRow);
}

export function putFinalGrade(store: Store, f: FinalGradeValue): void {
  store
    .stmt(
      `INSERT INTO final_grades (course_id, student_id, letter, percent, reason, version, updated_by, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(course_id, student_id) DO UPDATE SET letter = excluded.letter, percent = excluded.percent,
         reason = excluded.reason, version = excluded.version, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    )
    .run(f.courseId, f.studentId, f.letter, f.percent, f.reason, f.version, f.updatedBy, f.updatedAt);
}

export function appendFinalGradeHistory(store: Store, h: FinalGradeHistoryValue): void {
  store
    .stmt(
      `INSERT INTO final_grade_history (course_id, student_id, version, old_letter, old_percent, new_letter, new_percent, reason, by, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(h.courseId, h.studentId, h.version, h.oldLetter, h.oldPercent, h.newLetter, h.newPercent, h.reason, h.by, h.at);
}

export function finalGradeHistory(store: Store, courseId: string, studentId: string): FinalGradeHistoryValue[] {
  return (store.stmt('SELECT * FROM final_grade_history WHERE course_id = ? AND student_id = ? ORDER BY version, seq').all(courseId, studentId) as Row[]).map(
    finalGradeHistoryFromRow,
  );
}
