import type { Store } from './db.js';

/** The gradebook setup is one versioned document per course, stored whole. */
export interface StoredSetup {
  courseId: string;
  version: number;
}

export function getGradebookSetup<T extends StoredSetup>(store: Store, courseId: string): T | null {
  const row = store.stmt('SELECT setup FROM gradebook_setups WHERE course_id = ?').get(courseId) as { setup: string } | undefined;
  return row ? (JSON.parse(row.setup) as T) : null;
}

export function putGradebookSetup<T extends StoredSetup>(store: Store, setup: T): T {
  store
    .stmt('INSERT INTO gradebook_setups (course_id, setup, version) VALUES (?, ?, ?) ON CONFLICT(course_id) DO UPDATE SET setup = excluded.setup, version = excluded.version')
    .run(setup.courseId, JSON.stringify(setup), setup.version);
  return setup;
}

export function listGradebookSetups<T extends StoredSetup>(store: Store): T[] {
  return (store.stmt('SELECT setup FROM gradebook_setups ORDER BY course_id').all() as { setup: string }[]).map((r) => JSON.parse(r.setup) as T);
}
