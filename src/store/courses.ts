import type { Store } from './db.js';
import { closeGap, moveTo, openSlot } from './positions.js';
import { type CourseValue, courseFromRow, type ModuleValue, moduleFromRow, type Row } from './rows.js';

export function getCourse(store: Store, id: string): CourseValue | null {
  const row = store.stmt('SELECT * FROM courses WHERE id = ?').get(id) as Row | undefined;
  return row ? courseFromRow(row) : null;
}

/** All courses, or those the user is enrolled in; ordered by id. */
export function listCourses(store: Store, enrolledUserId?: string): CourseValue[] {
  const rows = enrolledUserId
    ? (store.stmt('SELECT c.* FROM courses c JOIN enrollments e ON e.course_id = c.id WHERE e.user_id = ? ORDER BY c.id').all(enrolledUserId) as Row[])
    : (store.stmt('SELECT * FROM courses ORDER BY id').all() as Row[]);
  return rows.map(courseFromRow);
}

export function insertCourse(store: Store, c: CourseValue): CourseValue {
  store
    .stmt(
      `INSERT INTO courses (id, title, description, status, published_at, objectives, rubric_id, template_id, access_floor,
        tutor_lesson, tutor_assignment, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(c.id, c.title, c.description, c.status, c.publishedAt, JSON.stringify(c.objectives), c.rubricId, c.templateId, c.accessFloor,
      c.tutorDefaults.lesson, c.tutorDefaults.assignment, c.createdAt, c.updatedAt);
  return c;
}

export function updateCourse(store: Store, c: CourseValue): CourseValue {
  store
    .stmt(
      `UPDATE courses SET title = ?, description = ?, status = ?, published_at = ?, objectives = ?, rubric_id = ?, template_id = ?,
        access_floor = ?, tutor_lesson = ?, tutor_assignment = ?, updated_at = ? WHERE id = ?`,
    )
    .run(c.title, c.description, c.status, c.publishedAt, JSON.stringify(c.objectives), c.rubricId, c.templateId, c.accessFloor,
      c.tutorDefaults.lesson, c.tutorDefaults.assignment, c.updatedAt, c.id);
  return c;
}

// --- modules -------------------------------------------------------------------------

const MODULES = { table: 'modules', parent: 'course_id' } as const;

export function getModule(store: Store, id: string): ModuleValue | null {
  const row = store.stmt('SELECT * FROM modules WHERE id = ?').get(id) as Row | undefined;
  return row ? moduleFromRow(row) : null;
}

export function listModules(store: Store, courseId: string): ModuleValue[] {
  return (store.stmt('SELECT * FROM modules WHERE course_id = ? ORDER BY position, id').all(courseId) as Row[]).map(moduleFromRow);
}

export function insertModule(store: Store, m: Omit<ModuleValue, 'position'> & { position?: number }): ModuleValue {
  const position = openSlot(store, MODULES, m.courseId, m.position);
  const mod: ModuleValue = { ...m, position };
  store
    .stmt('INSERT INTO modules (id, course_id, title, objective, position, status) VALUES (?, ?, ?, ?, ?, ?)')
    .run(mod.id, mod.courseId, mod.title, mod.objective, mod.position, mod.status);
  return mod;
}

export function updateModule(store: Store, before: ModuleValue, after: ModuleValue): ModuleValue {
  if (after.position !== before.position) moveTo(store, MODULES, before.courseId, before.id, before.position, after.position);
  store.stmt('UPDATE modules SET title = ?, objective = ?, status = ? WHERE id = ?').run(after.title, after.objective, after.status, after.id);
  return after;
}

export function deleteModule(store: Store, m: ModuleValue): void {
  store.stmt('DELETE FROM modules WHERE id = ?').run(m.id);
  closeGap(store, MODULES, m.courseId, m.position);
}
