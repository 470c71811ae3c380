import type { LessonValue } from '../schemas/content.js';
import type { Store } from './db.js';
import { moveTo, openSlot } from './positions.js';
import { insertRecord, LESSONS, type Row, updateRecord } from './tables.js';

const SIBLINGS = { table: 'lessons', parent: 'module_id' } as const;

export async function getLesson(store: Store, id: string): Promise<LessonValue | null> {
  const row = (await store.get('SELECT * FROM lessons WHERE id = ?', id)) as Row | undefined;
  return row ? LESSONS.fromRow(row) : null;
}

export async function listLessons(store: Store, moduleId: string, publishedOnly: boolean): Promise<LessonValue[]> {
  const sql = publishedOnly
    ? "SELECT * FROM lessons WHERE module_id = ? AND status = 'published' ORDER BY position"
    : 'SELECT * FROM lessons WHERE module_id = ? ORDER BY position';
  return ((await store.all(sql, moduleId)) as Row[]).map(LESSONS.fromRow);
}

export async function insertLesson(store: Store, l: Omit<LessonValue, 'position'>, position?: number): Promise<LessonValue> {
  const pos = await openSlot(store, SIBLINGS, l.moduleId, position);
  return insertRecord(store, LESSONS, { ...l, position: pos });
}

export async function updateLesson(store: Store, before: LessonValue, after: LessonValue): Promise<LessonValue> {
  if (after.position !== before.position) await moveTo(store, SIBLINGS, before.moduleId, before.id, before.position, after.position);
  return updateRecord(store, LESSONS, after);
}
