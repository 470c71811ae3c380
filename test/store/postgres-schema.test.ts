/**
 * The PostgreSQL schema (store/migrations-postgres.ts) against SQLite's (store/migrations.ts),
 * on the run's throwaway cluster (test/setup/postgres-global.ts). Raw SQL on purpose: this
 * tests the schema itself. The databases use an ICU English collation by default, so any
 * text column that forgot COLLATE "C" would sort differently from SQLite.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg, { type CustomTypesConfig } from 'pg';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/migrations-postgres.js';
import { createDatabase, dropDatabase } from '../helpers/postgres.js';

const adminUrl = inject('pgAdminUrl');
const run = randomUUID().replaceAll('-', '').slice(0, 12);
const TEMPLATE = `schema_${run}`;
const databases: string[] = [];
const clients: pg.Client[] = [];
const stores: { close(): void }[] = [];

/** int8 as a JS number, as the store's pool will parse it (no module-level pg.types change). */
const TYPES: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? Number : pg.types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

type Isolation = 'serializable' | 'repeatable read' | 'read committed';

async function connect(url: string, isolation: Isolation = 'serializable'): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, types: TYPES, options: `-c default_transaction_isolation=${isolation.replace(' ', '\\ ')}` });
  await client.connect();
  clients.push(client);
  return client;
}

/** A new database holding the schema (a copy of the migrated template). */
async function freshDatabase(): Promise<string> {
  const name = `${TEMPLATE}_${databases.length}`;
  databases.push(name);
  return createDatabase(adminUrl, name, { template: TEMPLATE });
}

/** A SQLite database with the schema the store migrates to (raw, for schema-level checks). */
function sqliteStore(): { db: Database.Database; close(): void } {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  for (const m of MIGRATIONS) db.exec(m.sqlite);
  const store = { db, close: () => db.close() };
  stores.push(store);
  return store;
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`);
  await admin.end();
  databases.push(TEMPLATE);
  const url = new URL(adminUrl);
  url.pathname = `/${TEMPLATE}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  for (const m of MIGRATIONS) await client.query(POSTGRES_MIGRATIONS[m.version]!);
  await client.end();
});

afterAll(async () => {
  for (const c of clients.splice(0)) await c.end();
  for (const s of stores.splice(0)) s.close();
  for (const d of databases.splice(0).reverse()) await dropDatabase(adminUrl, d);
});

/** SQLite's `?` placeholders as pg's `$1, $2, ...` (no statement here has a `?` in a string). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

describe('PostgreSQL schema: structure', () => {
  let sqlite: ReturnType<typeof sqliteStore>;
  let postgres: pg.Client;
  beforeAll(async () => {
    sqlite = sqliteStore();
    postgres = await connect(await freshDatabase());
  });
  const pgRows = async <T>(sql: string, params: unknown[] = []) => (await postgres.query(sql, params)).rows as T[];
  const sqliteTables = () =>
    sqlite.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  const tableInfo = (table: string) =>
    sqlite.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[];
  const autoincrement = (table: string) =>
    /AUTOINCREMENT/i.test(sqlite.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(table) as string);

  it('has a version for every SQLite migration, and no other', () => {
    expect(Object.keys(POSTGRES_MIGRATIONS).map(Number)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it("has SQLite's tables with the same columns in the same order: nullability, defaults, and types that give the same JS values", async () => {
    const pgTables = await pgRows<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1',
    );
    expect(pgTables.map((t) => t.name).sort()).toEqual(sqliteTables());
    const PG_TYPE: Record<string, string> = { TEXT: 'text', INTEGER: 'bigint', REAL: 'double precision', BLOB: 'bytea' };
    // The two columns that are 32-bit on purpose (migrations-postgres.ts says why).
    const INTEGER_COLUMNS = new Set(['users.admin', 'grade_slots.slot']);
    for (const table of sqliteTables()) {
      const expected = tableInfo(table).map((c) => ({
        name: c.name,
        type: INTEGER_COLUMNS.has(`${table}.${c.name}`) ? 'integer' : PG_TYPE[c.type],
        // SQLite lets a non-INTEGER PRIMARY KEY column hold NULL (a documented legacy quirk); PostgreSQL never does.
        nullable: c.notnull === 0 && c.pk === 0,
        default: c.dflt_value,
        identity: c.pk === 1 && autoincrement(table),
        collation: c.type === 'TEXT' ? 'C' : null,
      }));
      const actual = (
        await pgRows<{ name: string; type: string; nullable: boolean; default: string | null; identity: boolean; collation: string | null }>(
          `SELECT column_name AS name, data_type AS type, is_nullable = 'YES' AS nullable, column_default AS default,
                  is_identity = 'YES' AS identity, collation_name AS collation
           FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
          [table],
        )
      ).map((c) => ({ ...c, default: c.default?.replace(/::[a-z ]+$/, '') ?? null }));
      expect({ table, columns: actual }).toEqual({ table, columns: expected });
    }
  });

  it("has SQLite's primary keys, unique constraints, indexes and foreign keys", async () => {
    for (const table of sqliteTables()) {
      const info = tableInfo(table);
      const primary = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      const indexes = (sqlite.db.prepare(`PRAGMA index_list(${table})`).all() as { name: string; unique: number; origin: string }[])
        .filter((i) => i.origin !== 'pk')
        .map((i) => {
          const columns = (sqlite.db.prepare(`PRAGMA index_info(${i.name})`).all() as { name: string }[]).map((c) => c.name).join(', ');
          return i.origin === 'u' ? `unique (${columns})` : `${i.unique ? 'unique ' : ''}index ${i.name} (${columns})`;
        });
      const expected = [`primary (${primary.map((c) => c.name).join(', ')})`, ...indexes].sort();
      const pgIndexes = await pgRows<{ name: string; primary: boolean; unique: boolean; constraint: boolean; columns: string[] }>(
        `SELECT i.relname AS name, x.indisprimary AS primary, x.indisunique AS unique,
                EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.contype = 'u') AS constraint,
                ARRAY(SELECT a.attname FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                      JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = $1::regclass`,
        [table],
      );
      const actual = pgIndexes
        .map((i) =>
          i.primary
            ? `primary (${i.columns.join(', ')})`
            : i.constraint
              ? `unique (${i.columns.join(', ')})`
              : `${i.unique ? 'unique ' : ''}index ${i.name} (${i.columns.join(', ')})`,
        )
        .sort();
      expect({ table, indexes: actual }).toEqual({ table, indexes: expected });

      const sqliteKeys = sqlite.db.prepare(`PRAGMA foreign_key_list(${table})`).all() as {
        id: number;
        table: string;
        from: string;
        to: string;
        on_delete: string;
      }[];
      const expectedKeys = [...new Set(sqliteKeys.map((k) => k.id))]
        .map((id) => {
          const parts = sqliteKeys.filter((k) => k.id === id);
          return `(${parts.map((k) => k.from).join(', ')}) -> ${parts[0]!.table}(${parts.map((k) => k.to).join(', ')}) on delete ${parts[0]!.on_delete}`;
        })
        .sort();
      const ON_DELETE: Record<string, string> = { a: 'NO ACTION', c: 'CASCADE', r: 'RESTRICT', n: 'SET NULL', d: 'SET DEFAULT' };
      const column = (relation: string, keys: string) =>
        `ARRAY(SELECT a.attname FROM unnest(${keys}) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a ON a.attrelid = ${relation} AND a.attnum = k.attnum ORDER BY k.ord)::text[]`;
      const pgKeys = await pgRows<{ from: string[]; table: string; to: string[]; on_delete: string }>(
        `SELECT ${column('c.conrelid', 'c.conkey')} AS from, c.confrelid::regclass::text AS table, ${column('c.confrelid', 'c.confkey')} AS to, c.confdeltype AS on_delete
         FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = $1::regclass`,
        [table],
      );
      const actualKeys = pgKeys.map((k) => `(${k.from.join(', ')}) -> ${k.table}(${k.to.join(', ')}) on delete ${ON_DELETE[k.on_delete]}`).sort();
      expect({ table, foreignKeys: actualKeys }).toEqual({ table, foreignKeys: expectedKeys });
    }
  });

  it("has SQLite's triggers on the same tables, plus the SERIALIZABLE guard on grade_cells", async () => {
    const expected = (
      sqlite.db.prepare("SELECT name, tbl_name AS table_name FROM sqlite_master WHERE type = 'trigger'").all() as { name: string; table_name: string }[]
    )
      .map((t) => `${t.table_name}.${t.name}`)
      .concat('grade_cells.grade_cells_serializable_write')
      .sort();
    const actual = await pgRows<{ name: string }>("SELECT tgrelid::regclass::text || '.' || tgname AS name FROM pg_trigger WHERE NOT tgisinternal");
    expect(actual.map((t) => t.name).sort()).toEqual(expected);
  });

  it("keeps SQLite's CHECK: a block belongs to a lesson or to an assignment, never both or neither", async () => {
    const setup = [
      "INSERT INTO courses (id, title, created_at, updated_at) VALUES ('c', 'C', 't', 't')",
      "INSERT INTO modules (id, course_id, title, position) VALUES ('m', 'c', 'M', 0)",
      "INSERT INTO lessons (id, module_id, course_id, title, minutes, position) VALUES ('l', 'm', 'c', 'L', 1, 0)",
      "INSERT INTO assignments (id, module_id, course_id, title, position, points) VALUES ('a', 'm', 'c', 'A', 0, 1)",
    ];
    for (const sql of setup) {
      sqlite.db.prepare(sql).run();
      await postgres.query(sql);
    }
    const block = "INSERT INTO blocks (id, lesson_id, assignment_id, position, type, content, updated_at) VALUES (?, ?, ?, 0, 'text', '{}', 't')";
    for (const [id, lesson, assignment] of [
      ['both', 'l', 'a'],
      ['neither', null, null],
    ]) {
      expect(() => sqlite.db.prepare(block).run(id, lesson, assignment)).toThrow(/CHECK constraint failed/);
      await expect(postgres.query(numbered(block), [id, lesson, assignment])).rejects.toMatchObject({ code: '23514' });
    }
    sqlite.db.prepare(block).run('ok', 'l', null);
    await postgres.query(numbered(block), ['ok', 'l', null]);
  });

  it('hands back the same JS values as better-sqlite3, and orders text by code point whatever the database collation', async () => {
    const ids = ['a', 'B', 'é', 'Z', '_', 'aa', 'ä', '😀', 'ﬀ', 'A'];
    const cell = Buffer.from(Array.from({ length: 28 }, (_, i) => (i * 37) % 256));
    const writes: [string, unknown[]][] = [
      ['INSERT INTO users (id, name, admin) VALUES (?, ?, ?)', ['u-values', 'Zoë ☃', 1]],
      ...ids.map((id): [string, unknown[]] => ['INSERT INTO users (id, name) VALUES (?, ?)', [id, id]]),
      ["INSERT INTO courses (id, title, access_floor, created_at, updated_at) VALUES ('cv', 'C', ?, 't', 't')", [0.30000000000000004]],
      ["INSERT INTO modules (id, course_id, title, position) VALUES ('mv', 'cv', 'M', 0)", []],
      ["INSERT INTO assignments (id, module_id, course_id, title, position, points) VALUES ('av', 'mv', 'cv', 'A', 0, ?)", [5e-324]],
      [
        "INSERT INTO submissions (id, assignment_id, student_id, attempt, state, submitted_at, score) VALUES ('sv', 'av', 'u-values', ?, 's', 't', ?)",
        [Number.MAX_SAFE_INTEGER, 1e21],
      ],
      ["INSERT INTO grade_cells (course_id, student_id, data) VALUES ('cv', 'u-values', ?)", [cell]],
    ];
    for (const [sql, params] of writes) {
      sqlite.db.prepare(sql).run(...params);
      await postgres.query(numbered(sql), params);
    }
    const reads = [
      "SELECT id, name, email, admin FROM users WHERE id = 'u-values'",
      "SELECT access_floor, content_revision, objectives FROM courses WHERE id = 'cv'",
      "SELECT points FROM assignments WHERE id = 'av'",
      "SELECT attempt, score, released_at FROM submissions WHERE id = 'sv'",
      'SELECT course_id, student_id, data FROM grade_cells',
      "SELECT id FROM users WHERE id <> 'u-values' ORDER BY id",
    ];
    for (const sql of reads) expect({ sql, rows: (await postgres.query(sql)).rows }).toStrictEqual({ sql, rows: sqlite.db.prepare(sql).all() });
    // Code-point order (SQLite's BINARY, PostgreSQL's "C"), where en-US would say _ a A aa ä B é Z ...
    expect((await postgres.query("SELECT id FROM users WHERE id <> 'u-values' ORDER BY id")).rows.map((r) => r.id)).toEqual([
      'A',
      'B',
      'Z',
      '_',
      'a',
      'aa',
      'ä',
      'é',
      'ﬀ',
      '😀',
    ]);
    expect((await postgres.query("SELECT attempt, data FROM submissions, grade_cells WHERE id = 'sv'")).rows[0]).toEqual({
      attempt: Number.MAX_SAFE_INTEGER,
      data: cell,
    });
  });
});

/** Courses' revisions, the slots and the cells: what the triggers keep. */
const STATE = {
  revisions: 'SELECT id, content_revision FROM courses ORDER BY id',
  slots: 'SELECT course_id, assignment_id FROM grade_slots ORDER BY course_id, assignment_id',
  cells: 'SELECT course_id, student_id FROM grade_cells ORDER BY course_id, student_id',
};
const CELL = Buffer.from([1, 2, 3, 4]);
const putCell = (course: string, student: string): [string, unknown[]] => [
  'INSERT INTO grade_cells (course_id, student_id, data) VALUES (?, ?, ?) ON CONFLICT (course_id, student_id) DO UPDATE SET data = excluded.data',
  [course, student, CELL],
];
const submission = (id: string, assignment: string, student: string, attempt: number) =>
  `INSERT INTO submissions (id, assignment_id, student_id, attempt, state, submitted_at) VALUES ('${id}', '${assignment}', '${student}', ${attempt}, 'submitted', 't')`;

/** The same writes for both dialects, each labelled; every trigger of both schemas gets exercised. */
const STEPS: [label: string, sql: string, params?: unknown[]][] = [
  ['people', "INSERT INTO users (id, name) VALUES ('s1', 'Ann'), ('s2', 'Bo')"],
  ['courses', "INSERT INTO courses (id, title, created_at, updated_at) VALUES ('c1', 'One', 't', 't'), ('c2', 'Two', 't', 't')"],
  ['setup', "INSERT INTO gradebook_setups (course_id, setup, version) VALUES ('c1', '{}', 1)"],
  ['setup written unchanged', "UPDATE gradebook_setups SET setup = '{}', version = 2 WHERE course_id = 'c1'"],
  ['setup changed', `UPDATE gradebook_setups SET setup = '{"v":3}', version = 3 WHERE course_id = 'c1'`],
  ['course bookkeeping only', "UPDATE courses SET updated_at = 'u' WHERE id = 'c1'"],
  ['course written unchanged, null to null', "UPDATE courses SET title = 'One', published_at = NULL WHERE id = 'c1'"],
  ['course dated, null to a value', "UPDATE courses SET published_at = 'p' WHERE id = 'c1'"],
  ['course undated, a value to null', "UPDATE courses SET published_at = NULL WHERE id = 'c1'"],
  ['course published', "UPDATE courses SET status = 'published' WHERE id = 'c1'"],
  ['modules', "INSERT INTO modules (id, course_id, title, position) VALUES ('m1', 'c1', 'M1', 0), ('m2', 'c2', 'M2', 0), ('m3', 'c1', 'M3', 1)"],
  ['positions parked', "UPDATE modules SET position = -(position + 1) WHERE course_id = 'c1' AND position >= 1"],
  ['positions back', "UPDATE modules SET position = -position WHERE course_id = 'c1' AND position < 0"],
  ['lessons', "INSERT INTO lessons (id, module_id, course_id, title, minutes, position) VALUES ('l1', 'm1', 'c1', 'L1', 5, 0), ('l2', 'm2', 'c2', 'L2', 5, 0)"],
  ['lesson written unchanged', "UPDATE lessons SET title = 'L1', minutes = 5 WHERE id = 'l1'"],
  ['lesson block', "INSERT INTO blocks (id, lesson_id, position, type, content, updated_at) VALUES ('b1', 'l1', 0, 'text', '{}', 't')"],
  [
    'assignments',
    "INSERT INTO assignments (id, module_id, course_id, title, position, points) VALUES ('a1', 'm1', 'c1', 'A1', 0, 10), ('a2', 'm1', 'c1', 'A2', 1, 10)",
  ],
  ['instruction block', "INSERT INTO blocks (id, assignment_id, position, type, content, updated_at) VALUES ('i1', 'a1', 0, 'text', '{}', 't')"],
  ['submissions', `${submission('x1', 'a1', 's1', 1)}, ('x2', 'a2', 's2', 1, 'submitted', 't')`],
  ['cell s1', ...putCell('c1', 's1')],
  ['cell s2', ...putCell('c1', 's2')],
  ['a new attempt', submission('x1b', 'a1', 's1', 2)],
  ['cell s1 again', ...putCell('c1', 's1')],
  ['submission text edited', "UPDATE submissions SET text = 'edited' WHERE id = 'x1b'"],
  ['graded', "UPDATE submissions SET grade = '{}', score = 7.5, released_at = 'r' WHERE id = 'x1b'"],
  ['cell s1 after grading', ...putCell('c1', 's1')],
  ['submission deleted', "DELETE FROM submissions WHERE id = 'x2'"],
  ['cell s2 again', ...putCell('c1', 's2')],
  ['assignment renamed', "UPDATE assignments SET title = 'A1 renamed' WHERE id = 'a1'"],
  ['assignment written with its course', "UPDATE assignments SET course_id = 'c1', title = 'A1 renamed' WHERE id = 'a1'"],
  ['cell s1 after the move', ...putCell('c1', 's1')],
  ['assignment moved to c2', "UPDATE assignments SET course_id = 'c2', module_id = 'm2' WHERE id = 'a2'"],
  ['instruction edited', `UPDATE blocks SET content = '{"x":1}' WHERE id = 'i1'`],
  ['block bookkeeping only', "UPDATE blocks SET updated_at = 'u' WHERE id = 'i1'"],
  ['block moved to a lesson of c2', "UPDATE blocks SET lesson_id = 'l2' WHERE id = 'b1'"],
  ['lesson moved to c2', "UPDATE lessons SET module_id = 'm2', course_id = 'c2' WHERE id = 'l1'"],
  ['instruction deleted', "DELETE FROM blocks WHERE id = 'i1'"],
  ['assignment deleted with its submissions', "DELETE FROM assignments WHERE id = 'a1'"],
  ['assignment created again', "INSERT INTO assignments (id, module_id, course_id, title, position, points) VALUES ('a1', 'm1', 'c1', 'A1', 0, 10)"],
  ['module deleted with its lessons, blocks and assignment', "DELETE FROM modules WHERE id = 'm2'"],
  ['student deleted', "DELETE FROM users WHERE id = 's2'"],
  ['course deleted', "DELETE FROM courses WHERE id = 'c1'"],
];

describe('PostgreSQL schema: triggers behave as on SQLite', () => {
  it('the same writes leave the same revisions, slots and cells after every step', async () => {
    const sqlite = sqliteStore();
    const postgres = await connect(await freshDatabase());
    const sqliteTrace: unknown[] = [];
    const pgTrace: unknown[] = [];
    // a1's slot after each step that touches assignments, per dialect.
    const slots: Record<'sqlite' | 'postgres', Map<string, number | undefined>> = { sqlite: new Map(), postgres: new Map() };
    const a1Slot = "SELECT slot FROM grade_slots WHERE assignment_id = 'a1'";
    for (const [label, sql, params = []] of STEPS) {
      sqlite.db.prepare(sql).run(...params);
      await postgres.query(numbered(sql), params);
      const state = async (read: (q: string) => Promise<unknown[]> | unknown[]) => {
        const seen: Record<string, unknown[]> = {};
        for (const [k, q] of Object.entries(STATE)) seen[k] = await read(q);
        return seen;
      };
      sqliteTrace.push({ label, ...(await state((q) => sqlite.db.prepare(q).all())) });
      pgTrace.push({ label, ...(await state(async (q) => (await postgres.query(q)).rows)) });
      if (label.startsWith('assignment')) {
        slots.sqlite.set(label, sqlite.db.prepare(a1Slot).pluck().get() as number | undefined);
        slots.postgres.set(label, (await postgres.query(a1Slot)).rows[0]?.slot as number | undefined);
      }
    }
    expect(pgTrace).toEqual(sqliteTrace);

    // And the trace says what the triggers are for (so equal traces cannot both be empty).
    const at = (label: string) => pgTrace.find((s) => (s as { label: string }).label === label) as Record<string, unknown>;
    const revision = (label: string, course: string) =>
      (at(label).revisions as { id: string; content_revision: number }[]).find((r) => r.id === course)?.content_revision;
    const cells = (label: string) => (at(label).cells as { student_id: string }[]).map((c) => c.student_id);
    expect(revision('setup', 'c1')).toBe(1);
    expect(revision('course written unchanged, null to null', 'c1')).toBe(2);
    expect(revision('course dated, null to a value', 'c1')).toBe(3);
    expect(revision('course undated, a value to null', 'c1')).toBe(4);
    expect(revision('course published', 'c1')).toBe(5);
    expect(revision('positions back', 'c1')).toBe(revision('modules', 'c1')! + 2);
    expect(revision('assignment written with its course', 'c1')).toBe(revision('assignment renamed', 'c1'));
    expect(revision('assignment moved to c2', 'c2')).toBe(revision('instruction block', 'c2')! + 1);
    expect(at('assignments').slots).toEqual([
      { course_id: 'c1', assignment_id: 'a1' },
      { course_id: 'c1', assignment_id: 'a2' },
    ]);
    expect(cells('a new attempt')).toEqual(['s2']);
    expect(cells('submission text edited')).toEqual(['s1', 's2']);
    expect(cells('graded')).toEqual(['s2']);
    expect(cells('submission deleted')).toEqual(['s1']);
    expect(cells('assignment renamed')).toEqual(['s1', 's2']);
    expect(cells('assignment written with its course')).toEqual(['s2']);
    // Its cascaded submissions no longer find the deleted assignment's course: the cell stays, its slot retired.
    expect(cells('assignment deleted with its submissions')).toEqual(['s1', 's2']);
    expect(at('course deleted').slots).toEqual([]);
    // A slot is never reused: a1 keeps its slot while only its title changes, and gets a
    // higher, never-seen number each time it is rewritten with its course or created again.
    for (const slot of Object.values(slots)) {
      const first = slot.get('assignments')!;
      expect(slot.get('assignment renamed')).toBe(first);
      expect(slot.get('assignment written with its course')).toBeGreaterThan(first);
      expect(slot.get('assignment deleted with its submissions')).toBeUndefined();
      expect(slot.get('assignment created again')).toBeGreaterThan(slot.get('assignment written with its course')!);
    }
  });
});

describe('PostgreSQL schema: grade cells are never stale (docs/grading.md)', () => {
  const RESET = `DELETE FROM courses; DELETE FROM users;
    INSERT INTO users (id, name) VALUES ('s1', 'Ann');
    INSERT INTO courses (id, title, created_at, updated_at) VALUES ('c1', 'One', 't', 't');
    INSERT INTO modules (id, course_id, title, position) VALUES ('m1', 'c1', 'M', 0);
    INSERT INTO assignments (id, module_id, course_id, title, position, points) VALUES ('a1', 'm1', 'c1', 'A1', 0, 1), ('a2', 'm1', 'c1', 'A2', 1, 1);
    ${submission('x1', 'a1', 's1', 1)};`;
  const WRITERS: Record<string, string> = {
    'a new submission': submission('x2', 'a2', 's1', 1),
    'a regrade': "UPDATE submissions SET score = 9 WHERE id = 'x1'",
    'a deleted submission': "DELETE FROM submissions WHERE id = 'x1'",
    'an assignment written with its course': "UPDATE assignments SET course_id = 'c1' WHERE id = 'a1'",
  };
  const ORDERS = ['the writer commits before the rebuild saves', 'the rebuild saves, the writer commits first', 'the rebuild saves and commits first'] as const;

  let url: string;
  let rebuild: pg.Client;
  let writing: pg.Client;
  let observer: pg.Client;
  beforeAll(async () => {
    url = await freshDatabase();
    [rebuild, writing, observer] = [await connect(url), await connect(url), await connect(url)];
  });

  for (const [writer, write] of Object.entries(WRITERS)) {
    for (const order of ORDERS) {
      it(`a rebuild overlapping ${writer} (${order}): one of them fails with 40001, no stale cell is kept`, async () => {
        await observer.query(RESET);
        const failures: string[] = [];
        const attempt = async (who: string, client: pg.Client, sql: string, params: unknown[] = []) => {
          try {
            await client.query(sql, params);
          } catch (err) {
            failures.push(`${who}: ${(err as { code?: string }).code}`);
          }
        };
        // The rebuild reads what store/grade-cells.ts reads, then saves the cell it folded.
        await rebuild.query('BEGIN');
        await rebuild.query("SELECT assignment_id, slot FROM grade_slots WHERE course_id = 'c1'");
        await rebuild.query("SELECT s.* FROM submissions s JOIN assignments a ON a.id = s.assignment_id WHERE a.course_id = 'c1' AND s.student_id = 's1'");
        const save = () => attempt('rebuild', rebuild, numbered(putCell('c1', 's1')[0]), putCell('c1', 's1')[1]);
        await writing.query('BEGIN');
        if (order !== 'the writer commits before the rebuild saves') await save();
        await attempt('writer', writing, write);
        if (order === 'the rebuild saves and commits first') await attempt('rebuild', rebuild, 'COMMIT');
        await attempt('writer', writing, 'COMMIT');
        if (order === 'the writer commits before the rebuild saves') await save();
        await attempt('rebuild', rebuild, 'COMMIT');
        for (const client of [rebuild, writing]) await client.query('ROLLBACK'); // a no-op unless a failure left one open

        expect(failures).toHaveLength(1);
        expect(failures[0]).toMatch(/: 40001$/);
        const cellKept = (await observer.query('SELECT 1 FROM grade_cells')).rowCount === 1;
        // A cell survives only when the write it would have missed did not happen.
        expect(cellKept).toBe(failures[0]!.startsWith('writer'));
      });
    }
  }

  it('refuses submission writes, assignment moves and cell saves outside SERIALIZABLE; other writes need no particular isolation', async () => {
    await observer.query(RESET);
    const revision = async () => (await observer.query("SELECT content_revision FROM courses WHERE id = 'c1'")).rows[0].content_revision as number;
    const before = await revision();
    for (const isolation of ['read committed', 'repeatable read'] as const) {
      const client = await connect(url, isolation);
      for (const sql of [...Object.values(WRITERS), numbered(putCell('c1', 's1')[0])]) {
        const params = sql.includes('$1') ? putCell('c1', 's1')[1] : [];
        await expect(client.query(sql, params), `${isolation}: ${sql}`).rejects.toMatchObject({ code: '25000' });
      }
      await client.query("UPDATE assignments SET title = $1 WHERE id = 'a2'", [isolation]);
      await client.query("UPDATE submissions SET text = 'not a graded field' WHERE id = 'x1'");
    }
    expect(await revision()).toBe(before + 2);
  });
});

describe('store/schema-types.ts', () => {
  it("describes every table and column of the schema, in order, with SQLite's nullability, value types and defaults", () => {
    const store = sqliteStore();
    const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    const VALUE: Record<string, string> = { TEXT: 'string', INTEGER: 'number', REAL: 'number', BLOB: 'Buffer' };
    const expected = Object.fromEntries(
      tables.map((table) => {
        const generatedKey = /AUTOINCREMENT/i.test(store.db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(table) as string);
        const info = store.db.prepare(`PRAGMA table_info(${table})`).all() as {
          name: string;
          type: string;
          notnull: number;
          dflt_value: unknown;
          pk: number;
        }[];
        return [
          table,
          info.map((c) => ({
            name: c.name,
            value: VALUE[c.type],
            nullable: c.notnull === 0 && c.pk === 0,
            generated: c.dflt_value !== null || (generatedKey && c.pk === 1),
          })),
        ];
      }),
    );
    expect(schemaTypeColumns()).toEqual(expected);
  });
});

/**
 * Each table of the `Database` interface with its columns, read from the declarations
 * (a parse, not a type check: fast, and the file only uses the forms handled here).
 */
function schemaTypeColumns(): Record<string, { name: string; value: string; nullable: boolean; generated: boolean }[]> {
  const file = fileURLToPath(new URL('../../src/store/schema-types.ts', import.meta.url));
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const interfaces = new Map(source.statements.filter(ts.isInterfaceDeclaration).map((i) => [i.name.text, i]));
  const properties = (name: string) =>
    interfaces
      .get(name)!
      .members.filter(ts.isPropertySignature)
      .map((m) => ({ name: m.name.getText(), type: m.type! }));
  const isNull = (t: ts.TypeNode) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword;
  const parts = (t: ts.TypeNode) => (ts.isUnionTypeNode(t) ? [...t.types] : [t]);
  const column = (type: ts.TypeNode): { value: string; nullable: boolean; generated: boolean } => {
    // Kysely's Generated<T> (optional in inserts) and ColumnType<Select, Insert, Update>.
    if (ts.isTypeReferenceNode(type) && type.typeName.getText() === 'Generated') return { ...column(type.typeArguments![0]!), generated: true };
    if (ts.isTypeReferenceNode(type) && type.typeName.getText() === 'ColumnType') {
      const [select, insert] = type.typeArguments!;
      return { ...column(select!), generated: parts(insert ?? select!).some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword) };
    }
    const value = parts(type).filter((t) => !isNull(t));
    return { value: value.map((t) => t.getText()).join(' | '), nullable: value.length < parts(type).length, generated: false };
  };
  return Object.fromEntries(
    properties('Database').map(({ name, type }) => [name, properties(type.getText()).map((c) => ({ name: c.name, ...column(c.type) }))]),
  );
}

describe('migration 6: the scheme letters beside each stored setup', () => {
  // Setups as earlier versions stored them: a scheme in its own order, one without bands,
  // one whose scheme is missing (not a valid setup today, but text the migration must survive).
  const SETUPS: [string, string][] = [
    [
      'c1',
      JSON.stringify({
        scheme: {
          bands: [
            { letter: 'A', min: 90 },
            { letter: 'B+', min: 85 },
            { letter: 'Zoë ☃', min: 0 },
          ],
        },
      }),
    ],
    ['c2', JSON.stringify({ scheme: { bands: [] } })],
    ['c3', JSON.stringify({ title: 'no scheme' })],
  ];
  const EXPECTED = { c1: ['A', 'B+', 'Zoë ☃'], c2: [], c3: [] };
  const before6 = MIGRATIONS.filter((m) => m.version < 6);
  const insertCourse = "INSERT INTO courses (id, title, created_at, updated_at) VALUES (?, 'C', 't', 't')";
  const insertSetup = 'INSERT INTO gradebook_setups (course_id, setup, version) VALUES (?, ?, 1)';

  it('SQLite: a version 5 store gets each setup letters in the scheme order', () => {
    const db = new Database(':memory:');
    stores.push({ close: () => db.close() });
    for (const m of before6) db.exec(m.sqlite);
    for (const [id, setup] of SETUPS) {
      db.prepare(insertCourse).run(id);
      db.prepare(insertSetup).run(id, setup);
    }
    db.exec(MIGRATIONS.find((m) => m.version === 6)!.sqlite);
    const rows = db.prepare('SELECT course_id, letters FROM gradebook_setups ORDER BY course_id').all() as { course_id: string; letters: string }[];
    expect(Object.fromEntries(rows.map((r) => [r.course_id, JSON.parse(r.letters)]))).toEqual(EXPECTED);
  });

  it('PostgreSQL: the same letters from the same setups', async () => {
    const name = `${TEMPLATE}_v5`;
    databases.push(name);
    const client = await connect(await createDatabase(adminUrl, name));
    for (const m of before6) await client.query(POSTGRES_MIGRATIONS[m.version]!);
    for (const [id, setup] of SETUPS) {
      await client.query(numbered(insertCourse), [id]);
      await client.query(numbered(insertSetup), [id, setup]);
    }
    await client.query(POSTGRES_MIGRATIONS[6]!);
    const { rows } = await client.query<{ course_id: string; letters: string }>('SELECT course_id, letters FROM gradebook_setups ORDER BY course_id');
    expect(Object.fromEntries(rows.map((r) => [r.course_id, JSON.parse(r.letters)]))).toEqual(EXPECTED);
  });
});
