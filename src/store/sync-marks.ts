/**
 * Per course and remote, what the last push or pull left (docs/authoring.md): the revision
 * of each copy and the course file both held, so the next push can tell a remote edit from
 * a local one. Local bookkeeping: dumps and datasets do not carry it.
 */
import type { SyncMarkValue } from '../schemas/course-content.js';
import type { Store } from './db.js';
import { insertRecord, type Row, SYNC_MARKS } from './tables.js';

export async function getSyncMark(store: Store, courseId: string, remote: string): Promise<SyncMarkValue | null> {
  const row = (await store.get('SELECT * FROM course_sync_marks WHERE course_id = ? AND remote = ?', courseId, remote)) as Row | undefined;
  return row ? SYNC_MARKS.fromRow(row) : null;
}

export function putSyncMark(store: Store, mark: SyncMarkValue): Promise<SyncMarkValue> {
  return insertRecord(store, SYNC_MARKS, mark, 'upsert');
}
