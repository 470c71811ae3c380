/**
 * A course keeps an instructor once it has one: only its instructors grade, and only they
 * (or admins) set up its gradebook and override final grades, so a course whose last
 * instructor was demoted or removed is one nobody but an admin can run. The rule holds for
 * every caller, admins included (docs/decisions.md, "The last instructor"): the fix, enrolling
 * another instructor first, is always open to whoever may change enrollments. A course that
 * never had an instructor (a new one, before its staff are enrolled) is not refused anything.
 * Pure: the store supplies the course's instructors and the change.
 */
import type { CourseRoleValue } from '../../schemas/people.js';

/** One enrollment as a change leaves it: its new role, or null when it is removed. */
export interface EnrollmentChange {
  userId: string;
  role: CourseRoleValue | null;
}

/**
 * The instructors the change takes away when it leaves the course none, in the order the
 * course had them; an empty list when the course keeps an instructor (or never had one).
 */
export function lastInstructorsTaken(instructors: readonly string[], changes: readonly EnrollmentChange[]): string[] {
  if (instructors.length === 0) return [];
  const after = new Map<string, CourseRoleValue | null>(instructors.map((id) => [id, 'instructor']));
  for (const c of changes) after.set(c.userId, c.role);
  for (const role of after.values()) if (role === 'instructor') return [];
  return [...instructors];
}

const quoted = (ids: readonly string[]) => ids.map((id) => JSON.stringify(id)).join(', ');

/** The conflict's message: who would go, and the fix (enroll another instructor first). */
export function lastInstructorMessage(courseId: string, taken: readonly string[]): string {
  const who = taken.length === 1 ? `${quoted(taken)} is the last instructor` : `${quoted(taken)} are the last instructors`;
  return (
    `Course ${JSON.stringify(courseId)} would be left without an instructor: ${who}. ` +
    `Enroll another instructor first (coursebook enrollments create --course ${courseId} --user USER --role instructor), then change or remove ${taken.length === 1 ? 'this enrollment' : 'these enrollments'}.`
  );
}
