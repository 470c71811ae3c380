import { compareStrings } from '../domain/compare.js';
import type { EnrollmentValue, UserValue } from '../schemas/people.js';
import type { Store } from './db.js';
import { ENROLLMENTS, insertRecord, type Row, USERS, updateRecord } from './tables.js';

export function getUser(store: Store, id: string): UserValue | null {
  const row = store.stmt('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
  return row ? USERS.fromRow(row) : null;
}

export function listUsers(store: Store): UserValue[] {
  return (store.stmt('SELECT * FROM users ORDER BY id').all() as Row[]).map(USERS.fromRow);
}

export function insertUser(store: Store, u: UserValue): UserValue {
  return insertRecord(store, USERS, u);
}

export function updateUser(store: Store, u: UserValue): UserValue {
  return updateRecord(store, USERS, u);
}

/** The store's first admin (by id), the local user of local mode. */
export function firstAdmin(store: Store): UserValue | null {
  const row = store.stmt('SELECT * FROM users WHERE admin = 1 ORDER BY id LIMIT 1').get() as Row | undefined;
  return row ? USERS.fromRow(row) : null;
}

export function getEnrollment(store: Store, courseId: string, userId: string): EnrollmentValue | null {
  const row = store.stmt('SELECT * FROM enrollments WHERE course_id = ? AND user_id = ?').get(courseId, userId) as Row | undefined;
  return row ? ENROLLMENTS.fromRow(row) : null;
}

export function listEnrollments(store: Store, courseId: string): EnrollmentValue[] {
  return (store.stmt('SELECT * FROM enrollments WHERE course_id = ? ORDER BY user_id').all(courseId) as Row[]).map(ENROLLMENTS.fromRow);
}

export function upsertEnrollment(store: Store, e: EnrollmentValue): EnrollmentValue {
  return insertRecord(store, ENROLLMENTS, e, 'upsert');
}

export function deleteEnrollment(store: Store, courseId: string, userId: string): boolean {
  return store.stmt('DELETE FROM enrollments WHERE course_id = ? AND user_id = ?').run(courseId, userId).changes > 0;
}

/** Students of a course with their names, ordered by name then id (code-point order). */
export function listStudents(store: Store, courseId: string): { id: string; name: string; email: string | null }[] {
  const rows = store
    .stmt("SELECT u.id, u.name, u.email FROM enrollments e JOIN users u ON u.id = e.user_id WHERE e.course_id = ? AND e.role = 'student'")
    .all(courseId) as { id: string; name: string; email: string | null }[];
  return rows.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.id, b.id));
}
