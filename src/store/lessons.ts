import type { Store } from './db.js';
import { moveTo, openSlot } from './positions.js';
import { lessonFromRow, type LessonValue, type Row } from './rows.js';

const LESSONS = { table: 'lessons', parent: 'module_id' } as const;

export function getLesson(store: Store, id: string): LessonValue | null {
  const row = store.stmt('SELECT * FROM lessons WHERE id = ?').get(id) as Row | undefined;
  return row ? lessonFromRow(row) : null;
}

export function listLessons(store: Store, moduleId: string, publishedOnly: boolean): LessonValue[] {
  const sql = publishedOnly
    ? "SELECT * FROM lessons WHERE module_id = ? AND status = 'published' ORDER BY position"
    : 'SELECT * FROM lessons WHERE module_id = ? ORDER BY position';
  return (store.stmt(sql).all(moduleId) as Row[]).map(lessonFromRow);
}

export function insertLesson(store: Store, l: Omit<LessonValue, 'position'>, position?: number): LessonValue {
  const pos = openSlot(store, LESSONS, l.moduleId, position);
  store
    .stmt('INSERT INTO lessons (id, module_id, course_id, title, minutes, position, status, published_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(l.id, l.moduleId, l.courseId, l.title, l.minutes, pos, l.status, l.publishedAt);
  return { ...l, position: pos };
}

export function updateLesson(store: Store, before: LessonValue, after: LessonValue): LessonValue {
  if (after.position !== before.position) moveTo(store, LESSONS, before.moduleId, before.id, before.position, after.position);
  store.stmt('UPDATE lessons SET title = ?, minutes = ?, status = ?, published_at = ? WHERE id = ?').run(after.title, after.minutes, after.status, after.publishedAt, after.id);
  return after;
}
