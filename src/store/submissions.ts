import type { GradeValue, SubmissionValue } from '../schemas/content.js';
import type { Store } from './db.js';
import { insertRecord, type Row, SUBMISSIONS } from './tables.js';

export async function getSubmission(store: Store, id: string): Promise<SubmissionValue | null> {
  const row = (await store.get('SELECT * FROM submissions WHERE id = ?', id)) as Row | undefined;
  return row ? SUBMISSIONS.fromRow(row) : null;
}

/** Submissions to an assignment (one student's, when given), oldest attempt first. */
export async function listSubmissions(store: Store, assignmentId: string, studentId?: string): Promise<SubmissionValue[]> {
  const rows = studentId
    ? ((await store.all('SELECT * FROM submissions WHERE assignment_id = ? AND student_id = ? ORDER BY attempt', assignmentId, studentId)) as Row[])
    : ((await store.all('SELECT * FROM submissions WHERE assignment_id = ? ORDER BY student_id, attempt', assignmentId)) as Row[]);
  return rows.map(SUBMISSIONS.fromRow);
}

export async function lastAttempt(store: Store, assignmentId: string, studentId: string): Promise<number> {
  return (
    (await store.get('SELECT COALESCE(MAX(attempt), 0) AS n FROM submissions WHERE assignment_id = ? AND student_id = ?', assignmentId, studentId)) as {
      n: number;
    }
  ).n;
}

export function insertSubmission(store: Store, s: SubmissionValue): Promise<SubmissionValue> {
  return insertRecord(store, SUBMISSIONS, s);
}

export async function writeGrade(store: Store, id: string, state: SubmissionValue['state'], grade: GradeValue): Promise<void> {
  await store.run(
    'UPDATE submissions SET state = ?, grade = ?, score = ?, released_at = ? WHERE id = ?',
    state,
    JSON.stringify(grade),
    grade.score,
    grade.releasedAt,
    id,
  );
}

/** A graded submission's state: a regrade of a returned one stays returned (the student already sees its grade). */
export function gradedState(releasedAt: string | null): SubmissionValue['state'] {
  return releasedAt ? 'returned' : 'graded';
}
