// The export benchmark's gradebook, built the same way on SQLite and PostgreSQL so the two
// exports are of the very same rows: 10,000 students x 200 items in 5 weighted categories
// with drops, late and missing work (the shape of bench/big-store.mjs). Everything but the
// submissions goes through the dataset import; the 1.9 million submissions are written in
// batches of rows the store's own table mapping (SUBMISSIONS.toRow) makes, through the
// store's Kysely handle, so the grade-cell triggers see every one as the app's writes would.
// BENCH_STUDENTS and BENCH_ITEMS shrink it for a quick look.
import { join } from 'node:path';
import { root } from './processes.mjs';

const { openStore } = await import(join(root, 'dist/store/db.js'));
const { importDataset } = await import(join(root, 'dist/store/dataset.js'));
const { SUBMISSIONS } = await import(join(root, 'dist/store/tables.js'));
const { fixedClock } = await import(join(root, 'dist/runtime/clock.js'));
const { defaultGradebookSetup } = await import(join(root, 'dist/domain/grading/defaults.js'));

export const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 10_000);
export const ITEMS = Number(process.env.BENCH_ITEMS ?? 200);
export const COURSE = 'crs_big';
const CATS = 5;
const ROWS_PER_INSERT = 2000; // 24,000 parameters: under SQLite's 32,766 and PostgreSQL's 65,535
const ROWS_PER_TRANSACTION = 50_000;
const DAY = 86_400_000;
const pad = (n, width) => String(n).padStart(width, '0');
const itemPoints = (i) => (i % 40 === 39 ? 0 : [10, 20, 25, 50, 100][i % 5]);

/** Build the gradebook into an empty store (a file path or a postgres:// URL); how long it took in ms. */
export async function buildBigStore(location) {
  const started = performance.now();
  const store = await openStore(location);
  try {
    const clock = fixedClock('2026-11-22T00:00:00Z');
    const due0 = Date.parse('2026-09-01T23:59:00Z');
    const students = Array.from({ length: STUDENTS }, (_, s) => `s${pad(s, 5)}`);
    await importDataset(
      store,
      clock,
      {
        coursebook: 1,
        users: [{ id: 'admin', name: 'Admin', admin: true }, ...students.map((id, s) => ({ id, name: `Student ${pad(STUDENTS - s, 5)}`, admin: false }))],
        courses: [{ id: COURSE, title: 'Big course' }],
        enrollments: students.map((userId) => ({ courseId: COURSE, userId, role: 'student' })),
        modules: Array.from({ length: 10 }, (_, m) => ({ id: `m${pad(m, 2)}`, courseId: COURSE, title: `Module ${m}`, position: m, status: 'published' })),
        assignments: Array.from({ length: ITEMS }, (_, i) => ({
          id: `a${pad(i, 4)}`,
          moduleId: `m${pad(i % 10, 2)}`,
          courseId: COURSE,
          title: `Item ${i}`,
          position: Math.floor(i / 10),
          status: 'published',
          publishedAt: '2026-08-01T00:00:00.000Z',
          dueAt: new Date(due0 + (i * DAY) / 4).toISOString(),
          points: itemPoints(i),
          submissionType: 'text',
          categoryId: `cat${i % CATS}`,
        })),
        gradebookSetups: [
          {
            ...defaultGradebookSetup(COURSE, '2026-11-01T00:00:00.000Z', 'admin'),
            mode: 'weighted',
            categories: Array.from({ length: CATS }, (_, c) => ({
              id: `cat${c}`,
              courseId: COURSE,
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

    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let rows = [];
    let inTransaction = [];
    let n = 0;
    const flush = async () => {
      const batches = inTransaction;
      inTransaction = [];
      await store.tx(async (tx) => {
        // One multi-row INSERT per batch: the tx's own `?` statements, in pg's $n form.
        const columns = SUBMISSIONS.columns;
        const tuple = `(${columns.map(() => '?').join(', ')})`;
        for (const batch of batches)
          await tx.run(
            `INSERT INTO submissions (${columns.join(', ')}) VALUES ${batch.map(() => tuple).join(', ')}`,
            ...batch.flatMap((row) => columns.map((c) => row[c])),
          );
      });
    };
    for (const studentId of students) {
      for (let i = 0; i < ITEMS; i++) {
        const r = rand();
        if (r < 0.05) continue; // missing
        const points = itemPoints(i);
        const late = r > 0.93 ? Math.floor(rand() * 5 * DAY) : -Math.floor(rand() * DAY);
        const ungraded = r > 0.995;
        const score = points === 0 ? Math.round(rand() * 5 * 4) / 4 : Math.round(points * (0.4 + rand() * 0.6) * 4) / 4;
        rows.push(
          SUBMISSIONS.toRow({
            id: `sub${++n}`,
            assignmentId: `a${pad(i, 4)}`,
            studentId,
            attempt: 1,
            state: ungraded ? 'submitted' : 'graded',
            text: 'x',
            fileId: null,
            link: null,
            submittedAt: new Date(due0 + (i * DAY) / 4 + late).toISOString(),
            grade: ungraded
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
                },
          }),
        );
        if (rows.length === ROWS_PER_INSERT) {
          inTransaction.push(rows);
          rows = [];
          if (inTransaction.length * ROWS_PER_INSERT >= ROWS_PER_TRANSACTION) await flush();
        }
      }
    }
    if (rows.length > 0) inTransaction.push(rows);
    if (inTransaction.length > 0) await flush();
    return { ms: performance.now() - started, submissions: n };
  } finally {
    await store.close();
  }
}
