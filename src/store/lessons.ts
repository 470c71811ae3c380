import type { LessonValue } from '../schemas/content.js';
import type { Store } from './db.js';
import { moveTo, openSlot } from './positions.js';
import { insertRecord, LESSONS, type Row, updateRecord } from './tables.js';

const SIBLINGS = { table: 'lessons', parent: 'module_id' } as const;

export function getLesson(store: Store, id: string): LessonValue | null {
  const row = store.stmt('SELECT * FROM lessons WHERE id = ?').get(id) as Row | undefined;
  return row ? LESSONS.fromRow(row) : null;
}

export function listLessons(store: Store, moduleId: string, publishedOnly: boolean): LessonValue[] {
  const sql = publishedOnly
    ? "SELECT * FROM lessons WHERE module_id = ? AND status = 'published' ORDER BY position"
    : 'SELECT * FROM lessons WHERE module_id = ? ORDER BY position';
  return (store.stmt(sql).all(moduleId) as Row[]).map(LESSONS.fromRow);
}

export function insertLesson(store: Store, l: Omit<LessonValue, 'position'>, position?: number): LessonValue {
  const pos = openSlot(store, SIBLINGS, l.moduleId, position);
  return insertRecord(store, LESSONS, { ...l, position: pos });
}

export function updateLesson(store: Store, before: LessonValue, after: LessonValue): LessonValue {
  if (after.position !== before.position) moveTo(store, SIBLINGS, before.moduleId, before.id, before.position, after.position);
  return updateRecord(store, LESSONS, after);
}
