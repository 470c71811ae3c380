/**
 * The content lifecycle an author expects (docs/authoring.md): publish and unpublish
 * courses, modules, lessons and assignments; delete modules, lessons and assignments. Every
 * path that could delete or hide an assignment with submissions (these operations and the
 * content write of course-content.ts) asks `assertStudentWorkKept` first.
 */
import { type AssignmentStanding, lostWorkMessage, studentWorkLost } from '../domain/content/student-work.js';
import { AppError, notFound } from '../errors.js';
import type { LessonValue } from '../schemas/content.js';
import type { CourseValue, ModuleValue } from '../schemas/courses.js';
import { getAssignmentRow, updateAssignmentRow } from './assignments.js';
import { deleteModule, getCourse, getModule, updateCourse, updateModule } from './courses.js';
import type { Store } from './db.js';
import { getLesson, updateLesson } from './lessons.js';
import { closeGap } from './positions.js';

/** Each assignment of a course with its own status and its module's. */
export async function assignmentStandings(store: Store, courseId: string): Promise<AssignmentStanding[]> {
  const rows = (await store.all(
    `SELECT a.id, a.title, a.module_id, CASE WHEN a.status = 'published' THEN 1 ELSE 0 END AS published,
              CASE WHEN m.status = 'published' THEN 1 ELSE 0 END AS module_published
       FROM assignments a JOIN modules m ON m.id = a.module_id WHERE a.course_id = ? ORDER BY m.position, a.position, a.id`,
    courseId,
  )) as { id: string; title: string; module_id: string; published: number; module_published: number }[];
  return rows.map((r) => ({ id: r.id, title: r.title, moduleId: r.module_id, published: r.published === 1, modulePublished: r.module_published === 1 }));
}

/** Submissions per assignment of a course (assignments without any are absent). */
export async function submissionCounts(store: Store, courseId: string): Promise<Map<string, number>> {
  const rows = (await store.all(
    'SELECT s.assignment_id AS id, COUNT(*) AS n FROM submissions s JOIN assignments a ON a.id = s.assignment_id WHERE a.course_id = ? GROUP BY s.assignment_id',
    courseId,
  )) as { id: string; n: number }[];
  return new Map(rows.map((r) => [r.id, r.n]));
}

/**
 * Refuse, with `conflict` naming each assignment, a change that would delete an assignment
 * with submissions or hide it from its students. `after` maps the standings now to the
 * standings the change leaves (an assignment left out is deleted).
 */
export async function assertStudentWorkKept(
  store: Store,
  courseId: string,
  after: (now: AssignmentStanding[]) => ReadonlyMap<string, AssignmentStanding>,
): Promise<void> {
  const submissions = await submissionCounts(store, courseId);
  if (submissions.size === 0) return;
  const before = await assignmentStandings(store, courseId);
  const lost = studentWorkLost(before, after(before), submissions);
  if (lost.length === 0) return;
  const total = lost.reduce((n, a) => n + a.submissions, 0);
  throw new AppError('conflict', lostWorkMessage(lost), { submissions: total, assignments: lost });
}

const byId = (list: AssignmentStanding[]) => new Map(list.map((a) => [a.id, a]));

// --- publishing ------------------------------------------------------------------------

/** A course back to draft (readiness gates publishing it again). */
export async function unpublishCourse(store: Store, courseId: string, now: string): Promise<CourseValue> {
  const course = await getCourse(store, courseId);
  if (!course) throw notFound('Course', courseId);
  if (course.status === 'draft') return course;
  return updateCourse(store, { ...course, status: 'draft', publishedAt: null, updatedAt: now });
}

/** A module's status: students see a module, and anything in it, only while it is published. */
export async function setModuleStatus(store: Store, moduleId: string, status: ModuleValue['status']): Promise<ModuleValue> {
  const before = await getModule(store, moduleId);
  if (!before) throw notFound('Module', moduleId);
  if (before.status === status) return before;
  if (status === 'draft')
    await assertStudentWorkKept(store, before.courseId, (now) => byId(now.map((a) => (a.moduleId === moduleId ? { ...a, modulePublished: false } : a))));
  return updateModule(store, before, { ...before, status });
}

/** A lesson back to draft: students no longer see it or its blocks. */
export async function unpublishLesson(store: Store, lessonId: string): Promise<LessonValue> {
  const before = await getLesson(store, lessonId);
  if (!before) throw notFound('Lesson', lessonId);
  if (before.status === 'draft') return before;
  return updateLesson(store, before, { ...before, status: 'draft', publishedAt: null });
}

/** An assignment back to draft; refused once it has submissions. */
export async function unpublishAssignment(store: Store, assignmentId: string): Promise<void> {
  const before = await getAssignmentRow(store, assignmentId);
  if (!before) throw notFound('Assignment', assignmentId);
  await assertStudentWorkKept(store, before.courseId, (now) => byId(now.map((a) => (a.id === assignmentId ? { ...a, published: false } : a))));
  if (before.status !== 'draft') await updateAssignmentRow(store, before, { ...before, status: 'draft', publishedAt: null });
}

// --- deleting --------------------------------------------------------------------------

/** Delete a module with its lessons, blocks and assignments; refused when one of its assignments has submissions. */
export async function removeModule(store: Store, moduleId: string): Promise<{ id: string }> {
  const m = await getModule(store, moduleId);
  if (!m) throw notFound('Module', moduleId);
  await assertStudentWorkKept(store, m.courseId, (now) => byId(now.filter((a) => a.moduleId !== moduleId)));
  await deleteModule(store, m);
  return { id: m.id };
}

/** Delete a lesson and its blocks; the lessons after it close the gap. */
export async function removeLesson(store: Store, lessonId: string): Promise<{ id: string }> {
  const l = await getLesson(store, lessonId);
  if (!l) throw notFound('Lesson', lessonId);
  await store.run('DELETE FROM lessons WHERE id = ?', l.id);
  await closeGap(store, { table: 'lessons', parent: 'module_id' }, l.moduleId, l.position);
  return { id: l.id };
}

/** Delete an assignment and its instructions; refused when it has submissions. */
export async function removeAssignment(store: Store, assignmentId: string): Promise<{ id: string }> {
  const a = await getAssignmentRow(store, assignmentId);
  if (!a) throw notFound('Assignment', assignmentId);
  await assertStudentWorkKept(store, a.courseId, (now) => byId(now.filter((x) => x.id !== assignmentId)));
  await store.run('DELETE FROM assignments WHERE id = ?', a.id);
  await closeGap(store, { table: 'assignments', parent: 'module_id' }, a.moduleId, a.position);
  return { id: a.id };
}
