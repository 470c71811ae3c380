import { AppError } from '../errors.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';
import type { Store } from './db.js';
import { GRADEBOOK_SETUPS, insertRecord, type Row } from './tables.js';

/** The gradebook setup is one versioned document per course, stored whole. */
export function getGradebookSetup(store: Store, courseId: string): GradebookSetupValue | null {
  const row = store.stmt('SELECT * FROM gradebook_setups WHERE course_id = ?').get(courseId) as Row | undefined;
  return row ? GRADEBOOK_SETUPS.fromRow(row) : null;
}

export function putGradebookSetup(store: Store, setup: GradebookSetupValue): GradebookSetupValue {
  return insertRecord(store, GRADEBOOK_SETUPS, setup, 'upsert');
}

export function listGradebookSetups(store: Store): GradebookSetupValue[] {
  return (store.stmt('SELECT * FROM gradebook_setups ORDER BY course_id').all() as Row[]).map(GRADEBOOK_SETUPS.fromRow);
}

/** A change made on `expected` must find the setup still there: else `conflict` with the current version (never a lost write). */
export function assertSetupVersion(current: GradebookSetupValue, expected: number): void {
  if (expected !== current.version) {
    throw new AppError('conflict', `The setup is at version ${current.version}, not ${expected}; read it again and reapply your change.`, {
      currentVersion: current.version,
    });
  }
}
