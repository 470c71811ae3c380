import { compareStrings } from '../domain/compare.js';
import { type EnrollmentChange, lastInstructorMessage, lastInstructorsTaken } from '../domain/people/last-instructor.js';
import { AppError, type Problem } from '../errors.js';
import type { EnrollmentValue, UserValue } from '../schemas/people.js';
import type { Store } from './db.js';
import { ENROLLMENTS, insertRecord, type Row, USERS, updateRecord } from './tables.js';

export async function getUser(store: Store, id: string): Promise<UserValue | null> {
  const row = (await store.get('SELECT * FROM users WHERE id = ?', id)) as Row | undefined;
  return row ? USERS.fromRow(row) : null;
}

export async function listUsers(store: Store): Promise<UserValue[]> {
  return ((await store.all('SELECT * FROM users ORDER BY id')) as Row[]).map(USERS.fromRow);
}

export function insertUser(store: Store, u: UserValue): Promise<UserValue> {
  return insertRecord(store, USERS, u);
}

export function updateUser(store: Store, u: UserValue): Promise<UserValue> {
  return updateRecord(store, USERS, u);
}

/** The store's first admin (by id), the local user of local mode. */
export async function firstAdmin(store: Store): Promise<UserValue | null> {
  const row = (await store.get('SELECT * FROM users WHERE admin = 1 ORDER BY id LIMIT 1')) as Row | undefined;
  return row ? USERS.fromRow(row) : null;
}

export async function getEnrollment(store: Store, courseId: string, userId: string): Promise<EnrollmentValue | null> {
  const row = (await store.get('SELECT * FROM enrollments WHERE course_id = ? AND user_id = ?', courseId, userId)) as Row | undefined;
  return row ? ENROLLMENTS.fromRow(row) : null;
}

export async function listEnrollments(store: Store, courseId: string): Promise<EnrollmentValue[]> {
  return ((await store.all('SELECT * FROM enrollments WHERE course_id = ? ORDER BY user_id', courseId)) as Row[]).map(ENROLLMENTS.fromRow);
}

export function upsertEnrollment(store: Store, e: EnrollmentValue): Promise<EnrollmentValue> {
  return insertRecord(store, ENROLLMENTS, e, 'upsert');
}

export async function deleteEnrollment(store: Store, courseId: string, userId: string): Promise<boolean> {
  return (await store.run('DELETE FROM enrollments WHERE course_id = ? AND user_id = ?', courseId, userId)).changes > 0;
}

/** The ids of a course's instructors, in id order. */
async function instructorIds(store: Store, courseId: string): Promise<string[]> {
  const rows = (await store.all("SELECT user_id FROM enrollments WHERE course_id = ? AND role = 'instructor' ORDER BY user_id", courseId)) as {
    user_id: string;
  }[];
  return rows.map((r) => r.user_id);
}

/**
 * Refuses (conflict) a change of a course's enrollments that would take away its last
 * instructor (domain/people/last-instructor.ts), before anything is written: the enrollment
 * route's create and delete and a dataset import with --replace ask it, inside the
 * transaction that writes for the route. `where` gives the problems' paths in a file (a
 * dataset's `enrollments[3].role`); without it the details name the course and instructors.
 */
export async function assertInstructorKept(
  store: Store,
  courseId: string,
  changes: readonly EnrollmentChange[],
  where?: (change: EnrollmentChange) => string,
): Promise<void> {
  const taken = lastInstructorsTaken(await instructorIds(store, courseId), changes);
  if (taken.length === 0) return;
  const message = lastInstructorMessage(courseId, taken);
  const details: Problem[] | { courseId: string; instructors: string[] } = where
    ? changes.filter((c) => taken.includes(c.userId)).map((c) => ({ path: where(c), message }))
    : { courseId, instructors: taken };
  throw new AppError('conflict', message, details);
}

/** A student of a course as the roster lists them: the user's id, name and email. */
type StudentRow = Pick<UserValue, 'id' | 'name' | 'email'>;

/** The columns of a student row (listStudents, getStudent). */
const STUDENT_ROWS = "SELECT u.id, u.name, u.email FROM enrollments e JOIN users u ON u.id = e.user_id WHERE e.course_id = ? AND e.role = 'student'";

/**
 * One student of a course as listStudents gives them, or null when the user is not a student
 * of it: what a student's own view needs, without reading the whole roster (a 10,000-student
 * course's roster took 12 to 17 ms of one SQLite statement for every `/gradebook/me`).
 */
export async function getStudent(store: Store, courseId: string, userId: string): Promise<StudentRow | null> {
  return ((await store.get(`${STUDENT_ROWS} AND e.user_id = ?`, courseId, userId)) as StudentRow | undefined) ?? null;
}

/** Students of a course with their names, ordered by name then id (code-point order). */
export async function listStudents(store: Store, courseId: string): Promise<StudentRow[]> {
  const rows = (await store.all(STUDENT_ROWS, courseId)) as StudentRow[];
  return rows.sort(byNameThenId);
}

/**
 * listStudents read in slices of `slice` students (by id), awaiting `pause` between them:
 * for serve's large views, where one statement reading a 10,000-student roster held the
 * event loop for 12 to 17 ms. What an enrollment change between two slices leaves is what
 * it would leave between two slices of an export: each student at most once.
 */
export async function listStudentsInSlices(store: Store, courseId: string, pause: () => Promise<void>, slice = 2500): Promise<StudentRow[]> {
  const rows: StudentRow[] = [];
  for (let after = ''; ; ) {
    const got = (await store.all(`${STUDENT_ROWS} AND e.user_id > ? ORDER BY e.user_id LIMIT ?`, courseId, after, slice)) as typeof rows;
    rows.push(...got);
    if (got.length < slice) break;
    after = got[got.length - 1]!.id;
    await pause();
  }
  return rows.sort(byNameThenId);
}

const byNameThenId = (a: StudentRow, b: StudentRow): number => compareStrings(a.name, b.name) || compareStrings(a.id, b.id);
