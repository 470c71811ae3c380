import { AppError } from '../errors.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';
import type { Store } from './db.js';
import { GRADEBOOK_SETUPS, insertRecord, type Row } from './tables.js';

/** The gradebook setup is one versioned document per course, stored whole. */
export async function getGradebookSetup(store: Store, courseId: string): Promise<GradebookSetupValue | null> {
  const row = (await store.get('SELECT * FROM gradebook_setups WHERE course_id = ?', courseId)) as Row | undefined;
  return row ? GRADEBOOK_SETUPS.fromRow(row) : null;
}

export function putGradebookSetup(store: Store, setup: GradebookSetupValue): Promise<GradebookSetupValue> {
  return insertRecord(store, GRADEBOOK_SETUPS, setup, 'upsert');
}

export async function listGradebookSetups(store: Store): Promise<GradebookSetupValue[]> {
  return ((await store.all('SELECT * FROM gradebook_setups ORDER BY course_id')) as Row[]).map(GRADEBOOK_SETUPS.fromRow);
}

/** A change made on `expected` must find the setup still there: else `conflict` with the current version (never a lost write). */
export function assertSetupVersion(current: GradebookSetupValue, expected: number): void {
  if (expected !== current.version) {
    throw new AppError('conflict', `The setup is at version ${current.version}, not ${expected}; read it again and reapply your change.`, {
      currentVersion: current.version,
    });
  }
}
