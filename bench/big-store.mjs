// The benchmark gradebook: 10,000 students x 200 items in 5 categories with drops, late and
// missing work, built through the store's own bulk load (importDataset). BENCH_DB=path keeps it between runs;
// BENCH_DECIMALS=6 gives every score 6 decimals (the same store shape, its own file).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const { openStore } = await import(join(root, 'dist/store/db.js'));
const { importDataset } = await import(join(root, 'dist/store/dataset.js'));
const { fixedClock } = await import(join(root, 'dist/runtime/clock.js'));
const { defaultGradebookSetup } = await import(join(root, 'dist/domain/grading/defaults.js'));

export const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 10_000);
export const ITEMS = Number(process.env.BENCH_ITEMS ?? 200);
export const COURSE = 'crs_big';
/** A full-scope token of the store's admin, for benchmarks that go through `serve`. */
export const BENCH_TOKEN = 'bench-admin-token';
const CATS = 5;

/** The store's path (built now unless BENCH_DB names one that exists) and how long building took. */
export async function bigStore({ decimals = 0 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-gb-'));
  const keep = process.env.BENCH_DB ? (decimals ? process.env.BENCH_DB.replace(/(\.db)?$/, `-d${decimals}$1`) : process.env.BENCH_DB) : null;
  const db = keep ?? join(dir, `big${decimals ? `-d${decimals}` : ''}.db`);
  const t0 = performance.now();
  const built = !(keep && existsSync(keep));
  if (built) await buildStore(db, decimals);
  else await ensureToken(db);
  return { db, dir, built, kept: keep !== null, setupMs: performance.now() - t0 };
}

/** A store kept from an older bench run may predate the bench token. */
async function ensureToken(db) {
  const store = await openStore(db);
  try {
    await importDataset(
      store,
      fixedClock('2026-11-22T00:00:00Z'),
      { coursebook: 1, tokens: [{ id: 'tok_bench', token: BENCH_TOKEN, userId: 'admin', scopes: ['*'] }] },
      { replace: true },
    );
  } finally {
    await store.close();
  }
}

async function buildStore(db, decimals) {
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const C = COURSE;

  const store = await openStore(db);
  await importDataset(
    store,
    fixedClock('2026-11-22T00:00:00Z'),
    {
      coursebook: 1,
      users: [{ id: 'admin', name: 'Admin', admin: true }],
      tokens: [{ id: 'tok_bench', token: BENCH_TOKEN, userId: 'admin', scopes: ['*'] }],
      courses: [{ id: C, title: 'Big course' }],
      // Published: the gradebook's items are the published assignments in published modules.
      modules: Array.from({ length: 10 }, (_, m) => ({ id: `m${String(m).padStart(2, '0')}`, courseId: C, title: `Module ${m}`, status: 'published' })),
      gradebookSetups: [
        {
          // The default setup (letters, rounding, source, versions) with the bench's own policies.
          ...defaultGradebookSetup(C, '2026-11-01T00:00:00.000Z', 'admin'),
          mode: 'weighted',
          categories: Array.from({ length: CATS }, (_, c) => ({
            id: `cat${c}`,
            courseId: C,
            name: `Category ${c}`,
            position: c,
            weight: 20,
            drop: { lowest: 2, highest: c === 0 ? 1 : 0, keepAtLeast: 1 },
            lateApplies: true,
          })),
          late: { enabled: true, percentPerPeriod: 10, period: 'day', basis: 'score', maxPeriods: 3, afterMax: 'missing', graceMinutes: 10 },
          missing: { treatAs: 'zero-after-due', droppable: true },
          extraCredit: { categoryCapPercent: 10, courseCapPoints: null },
        },
      ],
    },
    { replace: false },
  );

  // Then the assignments and the students, through the product's bulk load (importDataset,
  // what `coursebook import` and `serve --seed` run): a student's submissions are written in
  // the same import as the student, so the grade cells are saved by that import (the first
  // export after the load finds them, as it would after a real import).
  const DAY = 86_400_000;
  const due0 = Date.parse('2026-09-01T23:59:00Z');
  const pointsOf = (i) => (i % 40 === 39 ? 0 : [10, 20, 25, 50, 100][i % 5]);
  const assignmentId = (i) => `a${String(i).padStart(4, '0')}`;
  const clock = fixedClock('2026-11-22T00:00:00Z');
  await importDataset(
    store,
    clock,
    {
      coursebook: 1,
      assignments: Array.from({ length: ITEMS }, (_, i) => ({
        id: assignmentId(i),
        moduleId: `m${String(i % 10).padStart(2, '0')}`,
        courseId: C,
        title: `Item ${i}`,
        position: Math.floor(i / 10),
        status: 'published',
        publishedAt: '2026-08-01T00:00:00.000Z',
        dueAt: new Date(due0 + (i * DAY) / 4).toISOString(),
        points: pointsOf(i),
        submissionType: 'text',
        categoryId: `cat${i % CATS}`,
        rubric: [],
        instructions: [],
      })),
    },
    { replace: false },
  );
  const STUDENTS_PER_IMPORT = 1000;
  let n = 0;
  for (let first = 0; first < STUDENTS; first += STUDENTS_PER_IMPORT) {
    const users = [];
    const enrollments = [];
    const submissions = [];
    for (let s = first; s < Math.min(STUDENTS, first + STUDENTS_PER_IMPORT); s++) {
      const sid = `s${String(s).padStart(5, '0')}`;
      users.push({ id: sid, name: `Student ${String(STUDENTS - s).padStart(5, '0')}`, email: null, admin: false });
      enrollments.push({ courseId: C, userId: sid, role: 'student' });
      for (let i = 0; i < ITEMS; i++) {
        const r = rand();
        if (r < 0.05) continue; // missing
        const points = pointsOf(i);
        const late = r > 0.93 ? Math.floor(rand() * 5 * DAY) : -Math.floor(rand() * DAY);
        const ungraded = r > 0.995;
        const scale = decimals ? 10 ** decimals : 4;
        const score = points === 0 ? Math.round(rand() * 5 * scale) / scale : Math.round(points * (0.4 + rand() * 0.6) * scale) / scale;
        const grade = ungraded
          ? null
          : {
              score,
              criteria: [],
              feedback: '',
              feedbackOrigin: 'human',
              feedbackProvenance: null,
              gradedBy: 'admin',
              gradedAt: '2026-11-01T00:00:00.000Z',
              releasedAt: '2026-11-02T00:00:00.000Z',
            };
        submissions.push({
          id: `sub${++n}`,
          assignmentId: assignmentId(i),
          studentId: sid,
          attempt: 1,
          state: ungraded ? 'submitted' : 'graded',
          text: 'x',
          fileId: null,
          link: null,
          submittedAt: new Date(due0 + (i * DAY) / 4 + late).toISOString(),
          grade,
        });
      }
    }
    await importDataset(store, clock, { coursebook: 1, users, enrollments, submissions }, { replace: false });
  }
  await store.all('PRAGMA wal_checkpoint(TRUNCATE)');
  await store.close();
}
