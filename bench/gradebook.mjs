// Large gradebook: 10,000 students x 200 items in 5 categories with drops, late and missing
// work. Times `coursebook gradebook export` through the CLI on a local store and reads the
// child's peak RSS. Target (issue 3): under 2 s and under 500 MB on a 2-core machine.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const { openStore } = await import(join(root, 'dist/store/db.js'));
const { importDataset } = await import(join(root, 'dist/store/dataset.js'));
const { fixedClock } = await import(join(root, 'dist/runtime/clock.js'));
const { insertSubmission } = await import(join(root, 'dist/store/submissions.js'));

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 10_000);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 200);
const CATS = 5;
const dir = mkdtempSync(join(tmpdir(), 'cb-bench-gb-'));
// BENCH_DB=path keeps the generated store there and reuses it on the next run (for profiling).
const keep = process.env.BENCH_DB;
const db = keep ?? join(dir, 'big.db');

let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

const C = 'crs_big';
const t0 = performance.now();
const built = !(keep && existsSync(keep));
if (built) buildStore();
const setupMs = performance.now() - t0;

function buildStore() {
  const store = openStore(db);
  importDataset(
    store,
    fixedClock('2026-11-22T00:00:00Z'),
    {
      coursebook: 1,
      users: [{ id: 'admin', name: 'Admin', admin: true }],
      courses: [{ id: C, title: 'Big course' }],
      modules: Array.from({ length: 10 }, (_, m) => ({ id: `m${String(m).padStart(2, '0')}`, courseId: C, title: `Module ${m}` })),
      gradebookSetups: [
        {
          courseId: C,
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
          scheme: {
            id: 's',
            name: 'Standard',
            bands: [
              ['A', 93],
              ['A-', 90],
              ['B+', 87],
              ['B', 83],
              ['B-', 80],
              ['C+', 77],
              ['C', 73],
              ['C-', 70],
              ['D+', 67],
              ['D', 63],
              ['D-', 60],
              ['F', 0],
            ].map(([letter, min]) => ({ letter, min })),
            rounding: { decimals: 1, mode: 'half-up' },
            letterFrom: 'rounded',
          },
          emptyCategory: 'share-weight',
          studentNotes: [],
          dismissedChecks: [],
          source: { kind: 'manual', designSessionId: null },
          version: 1,
          rulesVersion: 1,
          updatedBy: 'admin',
          updatedAt: '2026-11-01T00:00:00.000Z',
        },
      ],
    },
    { replace: false },
  );

  const DAY = 86_400_000;
  const due0 = Date.parse('2026-09-01T23:59:00Z');
  store.tx(() => {
    const insA = store.db.prepare(
      "INSERT INTO assignments (id, module_id, course_id, title, position, status, published_at, due_at, points, submission_type, category_id, rubric) VALUES (?, ?, ?, ?, ?, 'published', '2026-08-01T00:00:00.000Z', ?, ?, 'text', ?, '[]')",
    );
    for (let i = 0; i < ITEMS; i++) {
      const points = i % 40 === 39 ? 0 : [10, 20, 25, 50, 100][i % 5];
      insA.run(
        `a${String(i).padStart(4, '0')}`,
        `m${String(i % 10).padStart(2, '0')}`,
        C,
        `Item ${i}`,
        Math.floor(i / 10),
        new Date(due0 + (i * DAY) / 4).toISOString(),
        points,
        `cat${i % CATS}`,
      );
    }
    const insU = store.db.prepare('INSERT INTO users (id, name, email, admin) VALUES (?, ?, NULL, 0)');
    const insE = store.db.prepare("INSERT INTO enrollments (course_id, user_id, role) VALUES (?, ?, 'student')");
    let n = 0;
    for (let s = 0; s < STUDENTS; s++) {
      const sid = `s${String(s).padStart(5, '0')}`;
      insU.run(sid, `Student ${String(STUDENTS - s).padStart(5, '0')}`);
      insE.run(C, sid);
      for (let i = 0; i < ITEMS; i++) {
        const r = rand();
        if (r < 0.05) continue; // missing
        const points = i % 40 === 39 ? 0 : [10, 20, 25, 50, 100][i % 5];
        const late = r > 0.93 ? Math.floor(rand() * 5 * DAY) : -Math.floor(rand() * DAY);
        const ungraded = r > 0.995;
        const score = points === 0 ? Math.round(rand() * 5 * 4) / 4 : Math.round(points * (0.4 + rand() * 0.6) * 4) / 4;
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
        // Through the store's own write, so the bench store is exactly what the app writes.
        insertSubmission(store, {
          id: `sub${++n}`,
          assignmentId: `a${String(i).padStart(4, '0')}`,
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
  });
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
}

const out = join(dir, 'grades.csv');
// The first export after a bulk load builds the grade cells (one packed row per student,
// store/grade-cells.ts); every later one reads them. Both are reported; the target is for
// the steady state, where grading writes drop only the cells they touch.
const runs = Number(process.env.BENCH_RUNS ?? 3);
const exportOnce = () => {
  const start = performance.now();
  const res = spawnSync(
    '/usr/bin/time',
    ['-f', '%M', process.execPath, join(root, 'bin/coursebook'), '--db', db, 'gradebook', 'export', '--course', C, '--out', out],
    {
      encoding: 'utf8',
      env: { ...process.env, CI: '1' },
    },
  );
  const ms = performance.now() - start;
  if (res.status !== 0) throw new Error(`export failed: ${res.stderr}`);
  return { ms, rssKb: Number(res.stderr.trim().split('\n').pop()) };
};
const cold = built ? exportOnce() : null;
const warm = Array.from({ length: runs }, exportOnce);
const times = warm.map((r) => r.ms).sort((a, b) => a - b);
const rssKb = Math.max(...warm.map((r) => r.rssKb));
const csvMb = statSync(out).size / 1e6;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `gradebook: ${STUDENTS} students x ${ITEMS} items, export through the CLI: median ${s(times[Math.floor(times.length / 2)])} (runs: ${times.map(s).join(', ')}), ` +
    `peak RSS ${(rssKb / 1024).toFixed(0)} MB, CSV ${csvMb.toFixed(1)} MB` +
    (cold ? `; first export after the bulk load (builds the grade cells) ${s(cold.ms)}, ${(cold.rssKb / 1024).toFixed(0)} MB` : '') +
    ` (store built in ${(setupMs / 1000).toFixed(1)} s)`,
);
if (!keep) rmSync(dir, { recursive: true, force: true });
