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

/**
 * Delete every record (the schema stays): the first half of serve's reset. PostgreSQL takes
 * the statements as one text (none has a parameter), one round trip instead of 23; SQLite
 * prepares one statement at a time.
 */
export async function wipeStore(store: Store): Promise<void> {
  // The fixture's mark goes too (a store as new); a reset writes it again with the seed.
  const statements = [...TABLES.map((t) => `DELETE FROM ${t}`), 'DELETE FROM fixture_marks', ...NUMBERED.map((n) => restartNumbering(store.dialect, n))];
  if (store.dialect === 'postgres') await store.run(statements.join(';\n'));
  else for (const statement of statements) await store.run(statement);
}

/** True when no table holds a record (a fixture's mark is not one): the only store `serve --seed` loads into without --reseed. */
export async function isStoreEmpty(store: Store): Promise<boolean> {
  const anyRecord = TABLES.map((t) => `EXISTS (SELECT 1 FROM ${t})`).join(' OR ');
  return (await store.get(`SELECT 1 AS x WHERE ${anyRecord}`)) === undefined;
}

/** The tables numbered by the store: their numbering starts again at 1 after a wipe. */
const NUMBERED = [
  { table: 'final_grade_history', column: 'seq' },
  { table: 'grade_slots', column: 'slot' },
] as const;

/**
 * Numbering starts again at 1 after a wipe, as in a new store. Slots are otherwise never
 * reused, so that grade cells written under a retired slot stop counting; after a wipe no
 * cell is left to name one. Table and column names are the constants above, never input.
 */
function restartNumbering(dialect: Store['dialect'], { table, column }: (typeof NUMBERED)[number]): string {
  return dialect === 'sqlite'
    ? `DELETE FROM sqlite_sequence WHERE name = '${table}'`
    : `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), 1, false)`;
}
