import type { Store } from './db.js';

/** Children before parents, so foreign keys hold at every step. */
const TABLES = [
  'grade_cells',
  'grade_slots',
  'final_grade_history',
  'final_grades',
  'gradebook_setups',
  'course_sync_marks', // #14
  'findings',
  'attestations',
  'submissions',
  'blocks',
  'assignments',
  'lessons',
  'modules',
  'enrollments',
  'certificates',
  'reporting_lines',
  'tokens',
  'templates',
  'rubrics',
  'courses',
  'users',
];

/** Delete every record (the schema stays): the first half of serve's reset. */
export function wipeStore(store: Store): void {
  for (const t of TABLES) store.stmt(`DELETE FROM ${t}`).run();
  store.stmt("DELETE FROM sqlite_sequence WHERE name = 'final_grade_history'").run();
}

/** True when no table holds a record: the only store `serve --seed` loads into without --reseed. */
export function isStoreEmpty(store: Store): boolean {
  return TABLES.every((t) => store.stmt(`SELECT 1 AS x FROM ${t} LIMIT 1`).get() === undefined);
}
