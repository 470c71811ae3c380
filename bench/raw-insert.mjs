// The seeding floor: the least a program can do to load a dataset file into a coursebook
// store. Read and parse the file, create the store's schema (the DDL bench/seed.mjs copied from
// a store openStore made, triggers included), then insert every record with prepared
// statements in one transaction, with the store's own pragmas. No validation, no checks.
// Usage: node bench/raw-insert.mjs DATASET DB SCHEMA.json  (DB may be :memory:)
// Prints {"records": n, "insertMs": t} when done.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

const [datasetPath, dbPath, schemaPath] = process.argv.slice(2);
const dataset = JSON.parse(readFileSync(datasetPath, 'utf8'));
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));

const db = new Database(dbPath);
db.pragma('busy_timeout = 5000');
if (dbPath !== ':memory:') db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.exec(schema.ddl.join(';\n'));
db.pragma(`user_version = ${schema.userVersion}`);

const json = (v) => (v === null || v === undefined ? null : JSON.stringify(v));
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
// Each collection of the bench dataset: its table, the columns the store writes
// (store/tables.ts) and the row values, in that order.
const tables = {
  users: ['users', 'id, name, email, admin', (u) => [u.id, u.name, u.email, u.admin ? 1 : 0]],
  tokens: [
    'tokens',
    'id, user_id, token_sha256, name, scopes, created_at, expires_at, revoked_at, last_used_at',
    (t) => [t.id, t.userId, sha256(t.token), t.name, JSON.stringify(t.scopes), t.createdAt, t.expiresAt, t.revokedAt, t.lastUsedAt],
  ],
  courses: [
    'courses',
    'id, title, description, status, published_at, objectives, rubric_id, template_id, access_floor, tutor_lesson, tutor_assignment, created_at, updated_at',
    (c) => [
      c.id,
      c.title,
      c.description,
      c.status,
      c.publishedAt,
      JSON.stringify(c.objectives),
      c.rubricId,
      c.templateId,
      c.accessFloor,
      c.tutorDefaults.lesson,
      c.tutorDefaults.assignment,
      c.createdAt,
      c.updatedAt,
    ],
  ],
  enrollments: ['enrollments', 'course_id, user_id, role', (e) => [e.courseId, e.userId, e.role]],
  modules: ['modules', 'id, course_id, title, objective, position, status', (m) => [m.id, m.courseId, m.title, m.objective, m.position, m.status]],
  assignments: [
    'assignments',
    'id, module_id, course_id, title, position, status, published_at, due_at, points, submission_type, category_id, rubric',
    (a) => {
      // Instructions are block rows this floor does not write; the bench dataset has none.
      if (a.instructions.length > 0) throw new Error(`raw-insert: ${a.id} has instructions`);
      return [
        a.id,
        a.moduleId,
        a.courseId,
        a.title,
        a.position,
        a.status,
        a.publishedAt,
        a.dueAt,
        a.points,
        a.submissionType,
        a.categoryId,
        JSON.stringify(a.rubric),
      ];
    },
  ],
  submissions: [
    'submissions',
    'id, assignment_id, student_id, attempt, state, text, file_id, link, submitted_at, grade, score, released_at',
    (s) => [
      s.id,
      s.assignmentId,
      s.studentId,
      s.attempt,
      s.state,
      s.text,
      s.fileId,
      s.link,
      s.submittedAt,
      json(s.grade),
      s.grade?.score ?? null,
      s.grade?.releasedAt ?? null,
    ],
  ],
  gradebookSetups: [
    'gradebook_setups',
    'course_id, setup, version, letters',
    (g) => [g.courseId, JSON.stringify(g), g.version, JSON.stringify(g.scheme.bands.map((b) => b.letter))],
  ],
};

const start = performance.now();
let records = 0;
db.transaction(() => {
  for (const [collection, list] of Object.entries(dataset)) {
    if (!Array.isArray(list)) continue;
    const known = tables[collection];
    // A collection the floor cannot write would make it look faster than it is.
    if (!known) throw new Error(`raw-insert: no table for the collection ${collection}`);
    const [table, columns, row] = known;
    const insert = db.prepare(`INSERT INTO ${table} (${columns}) VALUES (${columns.replace(/[^,]+/g, '?')})`);
    for (const record of list) insert.run(row(record));
    records += list.length;
  }
}).immediate();
const insertMs = performance.now() - start;
db.close();
console.log(JSON.stringify({ records, insertMs }));
