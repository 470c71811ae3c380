// The grade-cell cache (store/grade-cells.ts) against the plain fold of every submission:
// whatever writes happen, in whatever order, reading through the cache must give exactly
// the records the submissions give.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { recordsFromSubmissions, type SubmissionRecords } from '../../src/domain/grading/records.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { eachInOrder } from '../../src/runtime/in-order.js';
import { importDataset } from '../../src/store/dataset.js';
import { openStore, type Store } from '../../src/store/db.js';
import { loadSubmissionRecords } from '../../src/store/grade-cells.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { insertSubmission, writeGrade } from '../../src/store/submissions.js';
import { column, value } from '../helpers/store-sql.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ASSIGNMENTS = ['a0', 'a1', 'a2', 'a3'];
const STUDENTS = ['s0', 's1', 's2'];

async function seed(store: Store, students = STUDENTS): Promise<void> {
  await store.run("INSERT INTO users (id, name, email, admin) VALUES ('t', 'Teacher', NULL, 0)");
  await store.run(`INSERT INTO courses (id, title, created_at, updated_at)
      VALUES ('c1', 'One', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'), ('c2', 'Two', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`);
  await store.run("INSERT INTO modules (id, course_id, title, position) VALUES ('m1', 'c1', 'M1', 0), ('m2', 'c2', 'M2', 0)");
  for (const s of students) {
    await store.run('INSERT INTO users (id, name, email, admin) VALUES (?, ?, NULL, 0)', s, `Student ${s}`);
    for (const c of ['c1', 'c2']) await store.run("INSERT INTO enrollments (course_id, user_id, role) VALUES (?, ?, 'student')", c, s);
  }
  for (const a of ASSIGNMENTS) await addAssignment(store, a, 'c1');
  await addAssignment(store, 'b0', 'c2');
}

async function addAssignment(store: Store, id: string, course: string): Promise<void> {
  const position = ((await store.get('SELECT count(*) AS n FROM assignments WHERE module_id = ?', course === 'c1' ? 'm1' : 'm2')) as { n: number }).n;
  await store.run(
    `INSERT INTO assignments (id, module_id, course_id, title, position, status, published_at, due_at, points, submission_type, category_id, rubric)
       VALUES (?, ?, ?, ?, ?, 'published', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 10, 'text', NULL, '[]')`,
    id,
    course === 'c1' ? 'm1' : 'm2',
    course,
    id,
    position,
  );
}

const publishedIds = async (store: Store, course: string) =>
  (await column(store, "SELECT id FROM assignments WHERE course_id = ? AND status = 'published' ORDER BY id", course)) as string[];
const studentIds = async (store: Store, course: string) =>
  (await column(store, "SELECT user_id FROM enrollments WHERE course_id = ? AND role = 'student' ORDER BY user_id", course)) as string[];

/** The records straight from the submissions table, no cache involved. */
async function directRecords(store: Store, items: string[], students: string[]): Promise<SubmissionRecords> {
  const rows = (await store.all(
    'SELECT assignment_id AS "assignmentId", student_id AS "studentId", attempt, submitted_at AS "submittedAt", score, released_at AS "releasedAt" FROM submissions',
  )) as { assignmentId: string; studentId: string; attempt: number; submittedAt: string; score: number | null; releasedAt: string | null }[];
  return recordsFromSubmissions(items, students, rows);
}

/** Records compare equal when every cell agrees (score and time only matter for a scored record). */
function expectSameRecords(actual: SubmissionRecords, expected: SubmissionRecords): void {
  expect(actual.nItems).toBe(expected.nItems);
  expect([...actual.any]).toEqual([...expected.any]);
  expect([...actual.attempt]).toEqual([...expected.attempt]);
  for (let c = 0; c < actual.attempt.length; c++) {
    if (expected.attempt[c]! > 0) {
      expect(actual.score[c]).toBe(expected.score[c]);
      expect(actual.submittedMs[c]).toBe(expected.submittedMs[c]);
    }
  }
}

async function checkCourse(store: Store, course: string): Promise<void> {
  const items = await publishedIds(store, course);
  const students = await studentIds(store, course);
  expectSameRecords(await loadSubmissionRecords(store, course, items, students), await directRecords(store, items, students));
}

let nextId = 0;
async function submit(store: Store, assignmentId: string, studentId: string, score: number | null, released: boolean, minutes: number): Promise<void> {
  const attempt = (
    (await store.get('SELECT COALESCE(MAX(attempt), 0) + 1 AS n FROM submissions WHERE assignment_id = ? AND student_id = ?', assignmentId, studentId)) as {
      n: number;
    }
  ).n;
  await insertSubmission(store, {
    id: `sub${++nextId}`,
    assignmentId,
    studentId,
    attempt,
    state: score === null ? 'submitted' : 'graded',
    text: 'x',
    fileId: null,
    link: null,
    submittedAt: new Date(Date.UTC(2026, 0, 20) + minutes * 60_000).toISOString(),
    grade: score === null ? null : grade(score, released),
  });
}

const grade = (score: number | null, released: boolean) => ({
  score,
  criteria: [],
  feedback: '',
  feedbackOrigin: 'human' as const,
  feedbackProvenance: null,
  gradedBy: 't',
  gradedAt: '2026-02-02T00:00:00.000Z',
  releasedAt: released ? '2026-02-03T00:00:00.000Z' : null,
});

type Op =
  | { kind: 'submit'; a: number; s: number; score: number | null; released: boolean; minutes: number }
  | { kind: 'regrade'; pick: number; score: number | null; released: boolean }
  | { kind: 'delete-submission'; pick: number }
  | { kind: 'delete-assignment'; a: number }
  | { kind: 'recreate-assignment'; a: number }
  | { kind: 'toggle-publish'; a: number }
  | { kind: 'delete-student'; s: number }
  | { kind: 'read' };

const score = fc.option(
  fc.integer({ min: 0, max: 40 }).map((q) => q / 4),
  { nil: null },
);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      a: fc.nat(4),
      s: fc.nat(2),
      score,
      released: fc.boolean(),
      minutes: fc.integer({ min: -5000, max: 20000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('regrade' as const), pick: fc.nat(), score, released: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-submission' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-assignment' as const), a: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('recreate-assignment' as const), a: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('toggle-publish' as const), a: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-student' as const), s: fc.nat(2) }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'read' as const }) },
);

async function apply(store: Store, o: Op): Promise<void> {
  const pickSubmission = async (pick: number) => {
    const ids = (await column(store, 'SELECT id FROM submissions ORDER BY id')) as string[];
    return ids.length ? ids[pick % ids.length]! : null;
  };
  const exists = async (table: string, id: string) => (await store.get(`SELECT 1 FROM ${table} WHERE id = ?`, id)) !== undefined;
  switch (o.kind) {
    case 'submit': {
      const a = o.a === 4 ? 'b0' : ASSIGNMENTS[o.a]!;
      const s = STUDENTS[o.s]!;
      if ((await exists('assignments', a)) && (await exists('users', s))) await submit(store, a, s, o.score, o.released, o.minutes);
      break;
    }
    case 'regrade': {
      const id = await pickSubmission(o.pick);
      if (id) await writeGrade(store, id, 'graded', grade(o.score, o.released));
      break;
    }
    case 'delete-submission': {
      const id = await pickSubmission(o.pick);
      if (id) await store.run('DELETE FROM submissions WHERE id = ?', id);
      break;
    }
    case 'delete-assignment':
      await store.run('DELETE FROM assignments WHERE id = ?', ASSIGNMENTS[o.a]!);
      break;
    case 'recreate-assignment':
      if (!(await exists('assignments', ASSIGNMENTS[o.a]!))) await addAssignment(store, ASSIGNMENTS[o.a]!, 'c1');
      break;
    case 'toggle-publish':
      await store.run("UPDATE assignments SET status = CASE status WHEN 'published' THEN 'draft' ELSE 'published' END WHERE id = ?", ASSIGNMENTS[o.a]!);
      break;
    case 'delete-student':
      await store.run('DELETE FROM users WHERE id = ?', STUDENTS[o.s]!);
      break;
    case 'read':
      await checkCourse(store, 'c1');
      await checkCourse(store, 'c2');
      break;
  }
}

describe('grade cells', () => {
  it('always read the same records as folding every submission, whatever was written in between', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        const store = await openStore(':memory:');
        try {
          await seed(store);
          for (const o of ops) await apply(store, o);
          await checkCourse(store, 'c1');
          await checkCourse(store, 'c2');
        } finally {
          await store.close();
        }
      }),
      { numRuns: 120 },
    );
  });

  it('are saved on the first read and dropped for exactly the student whose submission changes', async () => {
    const store = await openStore(':memory:');
    await seed(store);
    await submit(store, 'a0', 's0', 7.5, true, 10);
    await submit(store, 'a1', 's1', null, false, 10);
    const cells = async () => await column(store, "SELECT student_id FROM grade_cells WHERE course_id = 'c1' ORDER BY student_id");
    expect(await cells()).toEqual([]);
    await checkCourse(store, 'c1');
    expect(await cells()).toEqual(['s0', 's1', 's2']);
    await writeGrade(store, (await value(store, "SELECT id FROM submissions WHERE student_id = 's1'")) as string, 'graded', grade(9, false));
    expect(await cells()).toEqual(['s0', 's2']);
    // A submission to another course's assignment leaves this course's cells alone.
    await submit(store, 'b0', 's0', 3, true, 0);
    expect(await cells()).toEqual(['s0', 's2']);
    await checkCourse(store, 'c1');
    expect(await cells()).toEqual(['s0', 's1', 's2']);
    // A re-created assignment with the same id starts empty: the old submissions went with the old one.
    await store.run("DELETE FROM assignments WHERE id = 'a0'");
    await addAssignment(store, 'a0', 'c1');
    const records = await loadSubmissionRecords(store, 'c1', ['a0'], ['s0']);
    expect([...records.any]).toEqual([0]);
    await store.close();
  });

  it('rebuild a mostly uncached large course in one pass with the same result', async () => {
    const store = await openStore(':memory:');
    const many = Array.from({ length: 620 }, (_, i) => `s${String(i).padStart(3, '0')}`);
    await seed(store, many);
    await store.tx(async (tx) => {
      await eachInOrder(many, async (s, i) => {
        for (const [j, a] of ASSIGNMENTS.entries()) if ((i + j) % 3 !== 0) await submit(tx, a, s, (i * 7 + j) % 11, i % 2 === 0, i - 300);
        if (i % 5 === 0) await submit(tx, 'a1', s, 10, true, i); // a second attempt
      });
    });
    await checkCourse(store, 'c1');
    expect(await value(store, "SELECT count(*) FROM grade_cells WHERE course_id = 'c1'")).toBe(620);
    // Warm now: the same answer again from the cells alone.
    await checkCourse(store, 'c1');
    await store.close();
  });

  it('are built by a bulk import for every student it writes, equal to what the submissions give', async () => {
    const imported = fc.record({
      a: fc.nat(4),
      s: fc.nat(4), // 0-2 students already in the store, 3-4 new ones in the file
      attempt: fc.integer({ min: 1, max: 3 }),
      score,
      released: fc.boolean(),
      minutes: fc.integer({ min: -5000, max: 20000 }),
      // In replace mode: take over an existing submission's id (moving that row).
      takeOver: fc.option(fc.nat(), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 15 }), fc.array(imported, { minLength: 1, maxLength: 12 }), fc.boolean(), async (ops, rows, replace) => {
        const store = await openStore(':memory:');
        try {
          await seed(store);
          for (const o of ops) await apply(store, o);
          const newStudents = ['s3', 's4'];
          const students = [...STUDENTS, ...newStudents];
          const takenIds = new Set<string>();
          const takenTriples = new Set<string>();
          const submissions = [];
          for (const r of rows) {
            const assignmentId = r.a === 4 ? 'b0' : ASSIGNMENTS[r.a]!;
            const studentId = students[r.s]!;
            const assignment = (await store.get('SELECT course_id FROM assignments WHERE id = ?', assignmentId)) as { course_id: string } | undefined;
            if (!assignment || (r.s < 3 && (await store.get('SELECT 1 FROM users WHERE id = ?', studentId)) === undefined)) continue;
            const triple = `${assignmentId}/${studentId}/${r.attempt}`;
            if (takenTriples.has(triple)) continue;
            const stored = (await store.get(
              'SELECT id FROM submissions WHERE assignment_id = ? AND student_id = ? AND attempt = ?',
              assignmentId,
              studentId,
              r.attempt,
            )) as { id: string } | undefined;
            let id = `imp${++nextId}`;
            if (stored) {
              if (!replace) continue;
              id = stored.id;
            } else if (replace && r.takeOver !== null) {
              const ids = (await column(store, 'SELECT id FROM submissions ORDER BY id')) as string[];
              const other = ids.length ? ids[r.takeOver % ids.length]! : null;
              if (other && !takenIds.has(other)) id = other;
            }
            if (takenIds.has(id)) continue;
            takenIds.add(id);
            takenTriples.add(triple);
            submissions.push({
              id,
              assignmentId,
              studentId,
              attempt: r.attempt,
              text: 'x',
              fileId: null,
              link: null,
              submittedAt: new Date(Date.UTC(2026, 0, 20) + r.minutes * 60_000).toISOString(),
              grade: r.score === null ? null : grade(r.score, r.released),
              course: assignment.course_id,
            });
          }
          // A stored row keeping a triple that an imported row takes would clash: not a file this property is about.
          for (const sub of submissions) {
            const clash = (await store.get(
              'SELECT id FROM submissions WHERE assignment_id = ? AND student_id = ? AND attempt = ? AND id <> ?',
              sub.assignmentId,
              sub.studentId,
              sub.attempt,
              sub.id,
            )) as { id: string } | undefined;
            if (clash && !takenIds.has(clash.id)) return;
          }
          await importDataset(
            store,
            fixedClock('2026-11-24T00:00:00Z'),
            {
              coursebook: 1,
              users: newStudents.map((id) => ({ id, name: `Student ${id}` })),
              enrollments: newStudents.flatMap((id) => ['c1', 'c2'].map((courseId) => ({ courseId, userId: id, role: 'student' }))),
              submissions: submissions.map(({ course: _course, ...sub }) => sub),
            },
            { replace },
          );
          // Every (course, student) the import wrote has its cell saved before any read...
          for (const sub of submissions)
            expect(await value(store, 'SELECT count(*) FROM grade_cells WHERE course_id = ? AND student_id = ?', sub.course, sub.studentId)).toBe(1);
          // ...and a saved cell is taken as it is, so these reads compare it with the fold of the submissions.
          await checkCourse(store, 'c1');
          await checkCourse(store, 'c2');
        } finally {
          await store.close();
        }
      }),
      { numRuns: 120 },
    );
  });

  it('are answered from the submissions, unsaved, when another writer holds the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-cells-'));
    dirs.push(dir);
    const path = join(dir, 'busy.db');
    const store = await openStore(path);
    await seed(store);
    await submit(store, 'a0', 's0', 7.5, true, 10);
    await submit(store, 'a2', 's1', 4, false, 10);
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    await store.run('PRAGMA busy_timeout = 0');
    await checkCourse(store, 'c1');
    other.exec('ROLLBACK');
    other.close();
    expect(await value(store, 'SELECT count(*) FROM grade_cells')).toBe(0);
    await checkCourse(store, 'c1');
    expect(await value(store, 'SELECT count(*) FROM grade_cells')).toBe(3);
    await store.close();
  });

  it('are built for a store migrated from schema 2, with slots for its existing assignments', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-cells-'));
    dirs.push(dir);
    const path = join(dir, 'v2.db');
    const raw = new Database(path);
    for (const m of MIGRATIONS.filter((m) => m.version <= 2)) raw.exec(m.sqlite);
    raw.pragma('user_version = 2');
    raw.close();
    // The rows a version-2 build would have written, in plain SQL (no store of that build exists here).
    const v2 = new Database(path);
    v2.exec(`INSERT INTO users (id, name, email, admin) VALUES ('s0', 'S', NULL, 0);
      INSERT INTO courses (id, title, created_at, updated_at) VALUES ('c1', 'One', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
      INSERT INTO modules (id, course_id, title, position) VALUES ('m1', 'c1', 'M1', 0);
      INSERT INTO enrollments (course_id, user_id, role) VALUES ('c1', 's0', 'student');
      INSERT INTO assignments (id, module_id, course_id, title, position, status, published_at, due_at, points, submission_type, category_id, rubric)
        VALUES ('a0', 'm1', 'c1', 'A', 0, 'published', NULL, NULL, 10, 'text', NULL, '[]');
      INSERT INTO submissions (id, assignment_id, student_id, attempt, state, text, file_id, link, submitted_at, grade, score, released_at)
        VALUES ('x1', 'a0', 's0', 1, 'graded', 'x', NULL, NULL, '2026-01-05T10:00:00.000Z', '{"score":8.5}', 8.5, NULL);`);
    v2.close();
    const store = await openStore(path);
    expect(await column(store, "SELECT assignment_id FROM grade_slots WHERE course_id = 'c1'")).toEqual(['a0']);
    const r = await loadSubmissionRecords(store, 'c1', ['a0'], ['s0']);
    expect([r.any[0], r.attempt[0], r.score[0], r.submittedMs[0]]).toEqual([1, 1, 8.5, Date.parse('2026-01-05T10:00:00.000Z')]);
    await store.close();
  });
});
