import type { GradeValue, SubmissionValue } from '../schemas/content.js';
import type { Store } from './db.js';
import { insertRecord, type Row, SUBMISSIONS } from './tables.js';

export function getSubmission(store: Store, id: string): SubmissionValue | null {
  const row = store.stmt('SELECT * FROM submissions WHERE id = ?').get(id) as Row | undefined;
  return row ? SUBMISSIONS.fromRow(row) : null;
}

/** Submissions to an assignment (one student's, when given), oldest attempt first. */
export function listSubmissions(store: Store, assignmentId: string, studentId?: string): SubmissionValue[] {
  const rows = studentId
    ? (store.stmt('SELECT * FROM submissions WHERE assignment_id = ? AND student_id = ? ORDER BY attempt').all(assignmentId, studentId) as Row[])
    : (store.stmt('SELECT * FROM submissions WHERE assignment_id = ? ORDER BY student_id, attempt').all(assignmentId) as Row[]);
  return rows.map(SUBMISSIONS.fromRow);
}

export function lastAttempt(store: Store, assignmentId: string, studentId: string): number {
  return (
    store.stmt('SELECT COALESCE(MAX(attempt), 0) AS n FROM submissions WHERE assignment_id = ? AND student_id = ?').get(assignmentId, studentId) as {
      n: number;
    }
  ).n;
}

export function insertSubmission(store: Store, s: SubmissionValue): SubmissionValue {
  return insertRecord(store, SUBMISSIONS, s);
}

export function writeGrade(store: Store, id: string, state: SubmissionValue['state'], grade: GradeValue): void {
  store
    .stmt('UPDATE submissions SET state = ?, grade = ?, score = ?, released_at = ? WHERE id = ?')
    .run(state, JSON.stringify(grade), grade.score, grade.releasedAt, id);
}

/** A graded submission's state: a regrade of a returned one stays returned (the student already sees its grade). */
export function gradedState(releasedAt: string | null): SubmissionValue['state'] {
  return releasedAt ? 'returned' : 'graded';
}
