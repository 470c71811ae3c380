import { courseRubricProblems } from '../domain/content/course-rules.js';
import { defaultGradebookSetup } from '../domain/grading/defaults.js';
import { AppError, invalid } from '../errors.js';
import type { CourseValue, ModuleValue } from '../schemas/courses.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';
import type { Store } from './db.js';
import { putGradebookSetup } from './gradebook-setups.js';
import { closeGap, moveTo, openSlot } from './positions.js';
import { rubricExists } from './rubrics.js';
import { COURSES, insertRecord, MODULES, type Row, updateRecord } from './tables.js';

export async function getCourse(store: Store, id: string): Promise<CourseValue | null> {
  const row = (await store.get('SELECT * FROM courses WHERE id = ?', id)) as Row | undefined;
  return row ? COURSES.fromRow(row) : null;
}

/** All courses, or those the user is enrolled in; ordered by id. */
export async function listCourses(store: Store, enrolledUserId?: string): Promise<CourseValue[]> {
  const rows = enrolledUserId
    ? ((await store.all('SELECT c.* FROM courses c JOIN enrollments e ON e.course_id = c.id WHERE e.user_id = ? ORDER BY c.id', enrolledUserId)) as Row[])
    : ((await store.all('SELECT * FROM courses ORDER BY id')) as Row[]);
  return rows.map(COURSES.fromRow);
}

/**
 * Create a course: the one path every creation takes (POST /courses, a template, a course
 * file). The id must be free and the rubric installed; the course gets its gradebook setup
 * (the given one, else the default) in the same transaction.
 */
export function createCourse(store: Store, course: CourseValue, options: { actorId: string; setup?: GradebookSetupValue | undefined }): Promise<CourseValue> {
  return store.tx(async (tx) => {
    if (await getCourse(tx, course.id)) throw new AppError('conflict', `Course ${JSON.stringify(course.id)} already exists.`, { courseId: course.id });
    const installed = await rubricExists(tx, course.rubricId);
    const problems = courseRubricProblems(course.rubricId, () => installed);
    if (problems.length > 0) throw invalid(problems);
    await insertCourse(tx, course);
    await putGradebookSetup(tx, options.setup ?? defaultGradebookSetup(course.id, course.createdAt, options.actorId));
    return course;
  });
}

/** Change a course's fields; a new rubric must be installed. */
export async function changeCourse(store: Store, before: CourseValue, after: CourseValue): Promise<CourseValue> {
  if (after.rubricId !== before.rubricId) {
    const installed = await rubricExists(store, after.rubricId);
    const problems = courseRubricProblems(after.rubricId, () => installed);
    if (problems.length > 0) throw invalid(problems);
  }
  return updateCourse(store, after);
}

export function insertCourse(store: Store, c: CourseValue): Promise<CourseValue> {
  return insertRecord(store, COURSES, c);
}

export function updateCourse(store: Store, c: CourseValue): Promise<CourseValue> {
  return updateRecord(store, COURSES, c);
}

// --- modules -------------------------------------------------------------------------

const SIBLINGS = { table: 'modules', parent: 'course_id' } as const;

export async function getModule(store: Store, id: string): Promise<ModuleValue | null> {
  const row = (await store.get('SELECT * FROM modules WHERE id = ?', id)) as Row | undefined;
  return row ? MODULES.fromRow(row) : null;
}

/** A course's modules in order; students see published ones only. */
export async function listModules(store: Store, courseId: string, publishedOnly = false): Promise<ModuleValue[]> {
  const sql = publishedOnly
    ? "SELECT * FROM modules WHERE course_id = ? AND status = 'published' ORDER BY position, id"
    : 'SELECT * FROM modules WHERE course_id = ? ORDER BY position, id';
  return ((await store.all(sql, courseId)) as Row[]).map(MODULES.fromRow);
}

export async function insertModule(store: Store, m: Omit<ModuleValue, 'position'> & { position?: number }): Promise<ModuleValue> {
  const position = await openSlot(store, SIBLINGS, m.courseId, m.position);
  return insertRecord(store, MODULES, { ...m, position });
}

export async function updateModule(store: Store, before: ModuleValue, after: ModuleValue): Promise<ModuleValue> {
  if (after.position !== before.position) await moveTo(store, SIBLINGS, before.courseId, before.id, before.position, after.position);
  return updateRecord(store, MODULES, after);
}

export async function deleteModule(store: Store, m: ModuleValue): Promise<void> {
  await store.run('DELETE FROM modules WHERE id = ?', m.id);
  await closeGap(store, SIBLINGS, m.courseId, m.position);
}
