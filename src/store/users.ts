import type { Store } from './db.js';
import { type UserValue, enrollmentFromRow, type EnrollmentValue, userFromRow, type Row } from './rows.js';

export function getUser(store: Store, id: string): UserValue | null {
  const row = store.stmt('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
  return row ? userFromRow(row) : null;
}

export function listUsers(store: Store): UserValue[] {
  return (store.stmt('SELECT * FROM users ORDER BY id').all() as Row[]).map(userFromRow);
}

export function insertUser(store: Store, u: UserValue): UserValue {
  store.stmt('INSERT INTO users (id, name, email, admin) VALUES (?, ?, ?, ?)').run(u.id, u.name, u.email, u.admin ? 1 : 0);
  return u;
}

export function updateUser(store: Store, u: UserValue): UserValue {
  store.stmt('UPDATE users SET name = ?, email = ?, admin = ? WHERE id = ?').run(u.name, u.email, u.admin ? 1 : 0, u.id);
  return u;
}

/** The store's first admin (by id), the local user of local mode. */
export function firstAdmin(store: Store): UserValue | null {
  const row = store.stmt('SELECT * FROM users WHERE admin = 1 ORDER BY id LIMIT 1').get() as Row | undefined;
  return row ? userFromRow(row) : null;
}

export function getEnrollment(store: Store, courseId: string, userId: string): EnrollmentValue | null {
  const row = store.stmt('SELECT * FROM enrollments WHERE course_id = ? AND user_id = ?').get(courseId, userId) as Row | undefined;
  return row ? enrollmentFromRow(row) : null;
}

export function listEnrollments(store: Store, courseId: string): EnrollmentValue[] {
  return (store.stmt('SELECT * FROM enrollments WHERE course_id = ? ORDER BY user_id').all(courseId) as Row[]).map(enrollmentFromRow);
}

export function upsertEnrollment(store: Store, e: EnrollmentValue): EnrollmentValue {
  store
    .stmt('INSERT INTO enrollments (course_id, user_id, role) VALUES (?, ?, ?) ON CONFLICT(course_id, user_id) DO UPDATE SET role = excluded.role')
    .run(e.courseId, e.userId, e.role);
  return e;
}

export function deleteEnrollment(store: Store, courseId: string, userId: string): boolean {
  return store.stmt('DELETE FROM enrollments WHERE course_id = ? AND user_id = ?').run(courseId, userId).changes > 0;
}

/** Students of a course with their names, ordered by name then id (code-point order). */
export function listStudents(store: Store, courseId: string): { id: string; name: string }[] {
  const rows = store
    .stmt("SELECT u.id, u.name FROM enrollments e JOIN users u ON u.id = e.user_id WHERE e.course_id = ? AND e.role = 'student'")
    .all(courseId) as { id: string; name: string }[];
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => cmp(a.name, b.name) || cmp(a.id, b.id));
}
