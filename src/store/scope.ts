/**
 * Lookups the access layer needs: which course a resource belongs to, whether a student
 * may see it, and the people relations (managers, instructors) behind certificate access.
 */
import type { CourseRoleValue } from '../schemas/people.js';
import { withoutNul } from '../schemas/text.js';
import type { Store } from './db.js';

export type CourseVia = 'courseId' | 'moduleId' | 'lessonId' | 'assignmentId' | 'blockId' | 'submissionId';

export interface ResourceScope {
  courseId: string;
  /** The caller's enrollment role in the course (null: none), when resolveScope was asked for it. */
  role?: CourseRoleValue | null;
  /** false for draft lessons/assignments (and their blocks): students get not-found. */
  visibleToStudents: boolean;
  /** For submissions: the student who owns it. */
  ownerId?: string;
}

// Students see a module only while it is published, and a lesson or an assignment (and its
// blocks and submissions) only while it and its module are published (#14). `visible` is
// written as CASE ... THEN 1 ELSE 0: a bare comparison is 0/1 on SQLite but true/false on
// PostgreSQL.
const SQL: Record<CourseVia, string> = {
  courseId: 'SELECT id AS course_id, 1 AS visible FROM courses WHERE id = ?',
  moduleId: "SELECT course_id, CASE WHEN status = 'published' THEN 1 ELSE 0 END AS visible FROM modules WHERE id = ?",
  lessonId: `SELECT l.course_id, CASE WHEN l.status = 'published' AND m.status = 'published' THEN 1 ELSE 0 END AS visible
             FROM lessons l JOIN modules m ON m.id = l.module_id WHERE l.id = ?`,
  assignmentId: `SELECT a.course_id, CASE WHEN a.status = 'published' AND m.status = 'published' THEN 1 ELSE 0 END AS visible
                 FROM assignments a JOIN modules m ON m.id = a.module_id WHERE a.id = ?`,
  blockId: `SELECT COALESCE(l.course_id, a.course_id) AS course_id,
              CASE WHEN COALESCE(l.status, a.status) = 'published' AND m.status = 'published' THEN 1 ELSE 0 END AS visible
            FROM blocks b LEFT JOIN lessons l ON l.id = b.lesson_id LEFT JOIN assignments a ON a.id = b.assignment_id
            JOIN modules m ON m.id = COALESCE(l.module_id, a.module_id)
            WHERE b.id = ?`,
  submissionId: `SELECT a.course_id, CASE WHEN a.status = 'published' AND m.status = 'published' THEN 1 ELSE 0 END AS visible, s.student_id AS owner_id
                 FROM submissions s JOIN assignments a ON a.id = s.assignment_id JOIN modules m ON m.id = a.module_id WHERE s.id = ?`,
};

/**
 * Whether an id from a request can name a record. Access runs before the request is
 * validated, so these lookups meet ids as sent: one holding U+0000 names nothing (no stored
 * text holds one, schemas/text.ts) and is answered without asking the store, which on
 * PostgreSQL could not even compare it (22021). Both stores then say not-found alike.
 */
const mayNameRecord = (id: string): boolean => withoutNul(id);

/**
 * Each lookup with the caller's role in the resource's course beside it: one statement
 * instead of two for every request a course role decides (the role's `?` comes first).
 */
const WITH_ROLE = Object.fromEntries(
  Object.entries(SQL).map(([via, sql]) => [
    via,
    `SELECT s.*, (SELECT e.role FROM enrollments e WHERE e.course_id = s.course_id AND e.user_id = ?) AS role FROM (${sql}) s`,
  ]),
) as Record<CourseVia, string>;

/** The course a resource belongs to and whether students may see it; with `roleOf`, that user's role in the course too. */
export async function resolveScope(store: Store, via: CourseVia, id: string, roleOf?: string): Promise<ResourceScope | null> {
  if (!mayNameRecord(id)) return null;
  const row = (roleOf === undefined ? await store.get(SQL[via], id) : await store.get(WITH_ROLE[via], roleOf, id)) as
    | { course_id: string; visible: number; owner_id?: string; role?: CourseRoleValue | null }
    | undefined;
  if (!row) return null;
  return {
    courseId: row.course_id,
    visibleToStudents: row.visible === 1,
    ...(row.owner_id ? { ownerId: row.owner_id } : {}),
    ...(roleOf === undefined ? {} : { role: row.role ?? null }),
  };
}

export async function courseRole(store: Store, courseId: string, userId: string): Promise<CourseRoleValue | null> {
  const row = (await store.get('SELECT role FROM enrollments WHERE course_id = ? AND user_id = ?', courseId, userId)) as { role: string } | undefined;
  return (row?.role as CourseRoleValue | undefined) ?? null;
}

/** True when `managerId` manages `userId` directly or through a chain of reporting lines. */
export async function isManagerOf(store: Store, managerId: string, userId: string): Promise<boolean> {
  const row = (await store.get(
    `WITH RECURSIVE chain(id) AS (
         SELECT manager_id FROM reporting_lines WHERE report_id = ?
         UNION SELECT r.manager_id FROM reporting_lines r JOIN chain c ON r.report_id = c.id
       ) SELECT 1 AS yes FROM chain WHERE id = ? LIMIT 1`,
    userId,
    managerId,
  )) as { yes: number } | undefined;
  return row !== undefined;
}

export async function certificateSubject(store: Store, certificateId: string): Promise<{ userId: string; courseId: string } | null> {
  if (!mayNameRecord(certificateId)) return null;
  const row = (await store.get('SELECT user_id, course_id FROM certificates WHERE id = ?', certificateId)) as
    | { user_id: string; course_id: string }
    | undefined;
  return row ? { userId: row.user_id, courseId: row.course_id } : null;
}

export async function templateOwner(store: Store, templateId: string): Promise<{ kind: string; userId?: string } | null> {
  if (!mayNameRecord(templateId)) return null;
  const row = (await store.get('SELECT owner FROM templates WHERE id = ?', templateId)) as { owner: string } | undefined;
  return row ? (JSON.parse(row.owner) as { kind: string; userId?: string }) : null;
}

export async function tokenOwner(store: Store, tokenId: string): Promise<string | null> {
  if (!mayNameRecord(tokenId)) return null;
  const row = (await store.get('SELECT user_id FROM tokens WHERE id = ?', tokenId)) as { user_id: string } | undefined;
  return row?.user_id ?? null;
}
