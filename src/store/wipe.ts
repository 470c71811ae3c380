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
export async function wipeStore(store: Store): Promise<void> {
  for (const t of TABLES) await store.run(`DELETE FROM ${t}`);
  await resetSequences(store);
}

/** True when no table holds a record: the only store `serve --seed` loads into without --reseed. */
export async function isStoreEmpty(store: Store): Promise<boolean> {
  for (const t of TABLES) if ((await store.get(`SELECT 1 AS x FROM ${t} LIMIT 1`)) !== undefined) return false;
  return true;
}

/** The tables numbered by the store: their numbering starts again at 1 after a wipe. */
const NUMBERED = [
  { table: 'final_grade_history', column: 'seq' },
  { table: 'grade_slots', column: 'slot' },
];

/**
 * Numbering starts again at 1 after a wipe, as in a new store. Slots are otherwise never
 * reused, so that grade cells written under a retired slot stop counting; after a wipe no
 * cell is left to name one.
 */
async function resetSequences(store: Store): Promise<void> {
  for (const { table, column } of NUMBERED) {
    if (store.dialect === 'sqlite') await store.run('DELETE FROM sqlite_sequence WHERE name = ?', table);
    else await store.run(`SELECT setval(pg_get_serial_sequence('${table}', '${column}'), 1, false)`);
  }
}
