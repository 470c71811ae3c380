import { courseRubricProblems } from '../domain/content/course-rules.js';
import { defaultGradebookSetup } from '../domain/grading/defaults.js';
import { AppError, invalid } from '../errors.js';
import type { CourseValue, ModuleValue } from '../schemas/content.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';
import type { Store } from './db.js';
import { putGradebookSetup } from './gradebook-setups.js';
import { closeGap, moveTo, openSlot } from './positions.js';
import { rubricExists } from './readiness.js';
import { COURSES, insertRecord, MODULES, type Row, updateRecord } from './tables.js';

export function getCourse(store: Store, id: string): CourseValue | null {
  const row = store.stmt('SELECT * FROM courses WHERE id = ?').get(id) as Row | undefined;
  return row ? COURSES.fromRow(row) : null;
}

/** All courses, or those the user is enrolled in; ordered by id. */
export function listCourses(store: Store, enrolledUserId?: string): CourseValue[] {
  const rows = enrolledUserId
    ? (store.stmt('SELECT c.* FROM courses c JOIN enrollments e ON e.course_id = c.id WHERE e.user_id = ? ORDER BY c.id').all(enrolledUserId) as Row[])
    : (store.stmt('SELECT * FROM courses ORDER BY id').all() as Row[]);
  return rows.map(COURSES.fromRow);
}

/**
 * Create a course: the one path every creation takes (POST /courses, a template, a course
 * file). The id must be free and the rubric installed; the course gets its gradebook setup
 * (the given one, else the default) in the same transaction.
 */
export function createCourse(store: Store, course: CourseValue, options: { actorId: string; setup?: GradebookSetupValue | undefined }): CourseValue {
  return store.tx(() => {
    if (getCourse(store, course.id)) throw new AppError('conflict', `Course ${JSON.stringify(course.id)} already exists.`, { courseId: course.id });
    const problems = courseRubricProblems(course.rubricId, (id) => rubricExists(store, id));
    if (problems.length > 0) throw invalid(problems);
    insertCourse(store, course);
    putGradebookSetup(store, options.setup ?? defaultGradebookSetup(course.id, course.createdAt, options.actorId));
    return course;
  });
}

/** Change a course's fields; a new rubric must be installed. */
export function changeCourse(store: Store, before: CourseValue, after: CourseValue): CourseValue {
  if (after.rubricId !== before.rubricId) {
    const problems = courseRubricProblems(after.rubricId, (id) => rubricExists(store, id));
    if (problems.length > 0) throw invalid(problems);
  }
  return updateCourse(store, after);
}

export function insertCourse(store: Store, c: CourseValue): CourseValue {
  return insertRecord(store, COURSES, c);
}

export function updateCourse(store: Store, c: CourseValue): CourseValue {
  return updateRecord(store, COURSES, c);
}

// --- modules -------------------------------------------------------------------------

const SIBLINGS = { table: 'modules', parent: 'course_id' } as const;

export function getModule(store: Store, id: string): ModuleValue | null {
  const row = store.stmt('SELECT * FROM modules WHERE id = ?').get(id) as Row | undefined;
  return row ? MODULES.fromRow(row) : null;
}

/** A course's modules in order; students see published ones only. */
export function listModules(store: Store, courseId: string, publishedOnly = false): ModuleValue[] {
  const sql = publishedOnly
    ? "SELECT * FROM modules WHERE course_id = ? AND status = 'published' ORDER BY position, id"
    : 'SELECT * FROM modules WHERE course_id = ? ORDER BY position, id';
  return (store.stmt(sql).all(courseId) as Row[]).map(MODULES.fromRow);
}

export function insertModule(store: Store, m: Omit<ModuleValue, 'position'> & { position?: number }): ModuleValue {
  const position = openSlot(store, SIBLINGS, m.courseId, m.position);
  return insertRecord(store, MODULES, { ...m, position });
}

export function updateModule(store: Store, before: ModuleValue, after: ModuleValue): ModuleValue {
  if (after.position !== before.position) moveTo(store, SIBLINGS, before.courseId, before.id, before.position, after.position);
  return updateRecord(store, MODULES, after);
}

export function deleteModule(store: Store, m: ModuleValue): void {
  store.stmt('DELETE FROM modules WHERE id = ?').run(m.id);
  closeGap(store, SIBLINGS, m.courseId, m.position);
}
