/**
 * Gradebook numbers are stored at 6 decimals (rounded half-up on their decimal text) and
 * bounded, so every value the service accepts can be graded: the values that used to make
 * every grades view and export of a course answer 500.
 */

import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultGradebookSetup } from '../../src/domain/grading/defaults.js';
import { roundDecimalText } from '../../src/schemas/decimal.js';
import { importDataset } from '../../src/store/dataset.js';
import { makeService, type TestService } from '../helpers/app.js';
import { cliStore } from '../helpers/cli-store.js';
import { value } from '../helpers/store-sql.js';

let svc: TestService;
afterEach(() => svc?.close());

const MAX_INT = 9007199254740991;

const gradedCourse = () =>
  makeService({
    assignments: [
      { id: 'a1', moduleId: 'm1', title: 'Quiz', status: 'published', points: 10, dueAt: '2026-11-01T23:59:00Z', categoryId: 'hw' },
      { id: 'a2', moduleId: 'm1', title: 'Essay', status: 'published', points: 20, dueAt: '2026-11-01T23:59:00Z', categoryId: 'hw' },
    ],
    gradebookSetups: [
      {
        ...defaultGradebookSetup('c1', '2026-11-01T00:00:00Z', 'inst'),
        categories: [
          { id: 'hw', courseId: 'c1', name: 'Homework', position: 0, weight: 100, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
        ],
      },
    ],
    submissions: [
      { id: 's1', assignmentId: 'a1', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-02T10:00:00Z' },
      { id: 's2', assignmentId: 'a2', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-01T10:00:00Z', grade: { score: 15 } },
    ],
  });

async function gradesAndExportAnswer(s: TestService): Promise<void> {
  const grades = await s.call('GET', '/courses/c1/gradebook/grades');
  expect(grades.status).toBe(200);
  const exported = await s.call('GET', '/courses/c1/gradebook/export');
  expect(exported.status).toBe(200);
}

describe('rounding to 6 decimals on the decimal text', () => {
  it.each([
    [0.1234565, 0.123457],
    [9.9999995, 10],
    [0.1 + 0.2, 0.3],
    [25 / 3, 8.333333],
    [6.666666666666666, 6.666667],
    [10.000000000000002, 10],
    [5e-324, 0],
    [5e-7, 0.000001],
    [4.9e-7, 0],
    [33.333333333333336, 33.333333],
    [999999999.9999995, 1000000000],
    [9007199254740991, 9007199254740991],
    [87.5, 87.5],
  ])('%s is stored as %s', (given, stored) => {
    expect(roundDecimalText(given)).toBe(stored);
  });

  /** The same rule written another way: the exact decimal text as a BigInt count of 10^-places. */
  function reference(x: number): number {
    if (x === 0) return x; // -0 stays -0, as it always has
    const [mantissa, exp = '0'] = String(Math.abs(x)).split('e');
    const [whole, fraction = ''] = mantissa!.split('.');
    const scale = Number(exp) - fraction.length + 6; // value = digits * 10^(scale - 6)
    const digits = BigInt(`${whole}${fraction}`);
    let units: bigint;
    if (scale >= 0) units = digits * 10n ** BigInt(scale);
    else {
      const divisor = 10n ** BigInt(-scale);
      units = digits / divisor + ((digits % divisor) * 2n >= divisor ? 1n : 0n);
    }
    const whole6 = units / 1_000_000n;
    const rest = String(units % 1_000_000n).padStart(6, '0');
    const v = Number(`${whole6}.${rest}`);
    return x < 0 && v !== 0 ? -v : v;
  }

  it('agrees with an exact decimal rounding for any finite number (a few decimals, many, tiny or huge)', () => {
    const decimalsOf = fc.integer({ min: 0, max: 9 }).chain((d) => fc.integer({ min: -2e9, max: 2e9 }).map((k) => k / 10 ** d));
    fc.assert(
      fc.property(fc.oneof(decimalsOf, fc.double({ noNaN: true, noDefaultInfinity: true })), (x) => {
        expect(roundDecimalText(x)).toBe(reference(x));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('scores a script sends are stored rounded and grade without error', () => {
  it.each([
    [8.333333333333334, 8.333333],
    [0.30000000000000004, 0.3],
    [6.666666666666666, 6.666667],
  ])('PUT grade {score: %s} answers the stored %s, and grades and export answer 200', async (score, stored) => {
    svc = await gradedCourse();
    const res = await svc.call('PUT', '/submissions/s1/grade', { score }, 'inst');
    expect(res.status).toBe(200);
    expect(res.body.grade.score).toBe(stored);
    await gradesAndExportAnswer(svc);
    const csv = (await svc.call('GET', '/courses/c1/gradebook/export')).body.csv as string;
    expect(csv).toContain(`,${stored},`);
  });

  it('a score over 1,000,000,000 is invalid naming score (9007199254740991 used to be stored and break the gradebook)', async () => {
    svc = await gradedCourse();
    const res = await svc.call('PUT', '/submissions/s1/grade', { score: 9007199254740991 }, 'inst');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid');
    expect(res.body.error.details[0]).toEqual({ path: 'score', message: 'must be <= 1000000000' });
    await gradesAndExportAnswer(svc);
  });
});

describe('points', () => {
  it('10.000000000000002 is stored as 10 and 5e-324 as 0; both grade', async () => {
    svc = await gradedCourse();
    expect((await svc.call('PATCH', '/assignments/a1', { points: 10.000000000000002 })).body.points).toBe(10);
    await gradesAndExportAnswer(svc);
    expect((await svc.call('PATCH', '/assignments/a1', { points: 5e-324 })).body.points).toBe(0);
    await gradesAndExportAnswer(svc);
  });

  it('1e15 points is invalid naming points, on the API, in a dataset and in a course file', async () => {
    svc = await gradedCourse();
    const patched = await svc.call('PATCH', '/assignments/a1', { points: 1e15 });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual([{ path: 'points', message: 'must be <= 1000000000' }]);
    const file = await svc.call('POST', '/courses/import', {
      coursebookCourse: 1,
      course: { title: 'Big' },
      modules: [{ title: 'M', assignments: [{ title: 'A', points: 1e15 }] }],
    });
    expect(file.status).toBe(400);
    expect(file.body.error.details).toEqual([{ path: 'modules[0].assignments[0].points', message: 'must be <= 1000000000' }]);
    await expect(
      importDataset(svc.store, svc.clock, { coursebook: 1, assignments: [{ id: 'big', moduleId: 'm1', title: 'Big', points: 1e15 }] }, { replace: false }),
    ).rejects.toThrow(expect.objectContaining({ code: 'invalid', details: [{ path: 'assignments[0].points', message: 'must be <= 1000000000' }] }));
  });

  it('a dataset and a course file store points rounded like the API does', async () => {
    svc = await gradedCourse();
    await importDataset(
      svc.store,
      svc.clock,
      { coursebook: 1, assignments: [{ id: 'a9', moduleId: 'm1', title: 'Nine', points: 0.1 + 0.2 }] },
      { replace: false },
    );
    expect((await svc.call('GET', '/assignments/a9')).body.points).toBe(0.3);
    const file = await svc.call('POST', '/courses/import', {
      coursebookCourse: 1,
      course: { id: 'cf', title: 'File' },
      modules: [{ title: 'M', assignments: [{ id: 'af', title: 'A', points: 25 / 3 }] }],
    });
    expect(file.status).toBe(201);
    expect((await svc.call('GET', '/assignments/af')).body.points).toBe(8.333333);
  });
});

describe('setup percentages and caps', () => {
  it('late.percentPerPeriod and extraCredit.categoryCapPercent of 33.333333333333336 are stored as 33.333333 and grade', async () => {
    svc = await gradedCourse();
    const setup = (await svc.call('GET', '/courses/c1/gradebook/setup')).body;
    const next = {
      ...setup,
      late: { ...setup.late, enabled: true, percentPerPeriod: 33.333333333333336 },
      extraCredit: { categoryCapPercent: 33.333333333333336, courseCapPoints: 0.1 + 0.2 },
      categories: setup.categories.map((c: Record<string, unknown>) => ({ ...c, weight: 100.0000000000001 })),
    };
    const put = await svc.call('PUT', '/courses/c1/gradebook/setup', next);
    expect(put.status).toBe(200);
    expect(put.body.late.percentPerPeriod).toBe(33.333333);
    expect(put.body.extraCredit).toEqual({ categoryCapPercent: 33.333333, courseCapPoints: 0.3 });
    await gradesAndExportAnswer(svc);
  });

  it('a final-grade override percent is stored rounded', async () => {
    svc = await gradedCourse();
    const res = await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'Appeal', expectedVersion: 0, percent: 89.96000000000001 });
    expect(res.status).toBe(200);
    const history = await svc.call('GET', '/courses/c1/gradebook/students/stu1/final/history');
    expect(history.body[0].newPercent).toBe(89.96);
  });

  it('a rubric whose chosen levels add up past 1,000,000,000 is invalid naming criteria', async () => {
    svc = await makeService({
      assignments: [
        {
          id: 'r1',
          moduleId: 'm1',
          title: 'Huge',
          status: 'published',
          points: 1e9,
          rubric: [1, 2].map((n) => ({ id: `c${n}`, title: `C${n}`, levels: [{ id: 'max', title: 'Max', points: 6e8 }] })),
        },
      ],
      submissions: [{ id: 'sr', assignmentId: 'r1', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-02T10:00:00Z' }],
    });
    const res = await svc.call(
      'PUT',
      '/submissions/sr/grade',
      {
        criteria: [
          { criterionId: 'c1', levelId: 'max' },
          { criterionId: 'c2', levelId: 'max' },
        ],
      },
      'inst',
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'criteria', message: 'the chosen levels add up to 1200000000, over the largest score 1000000000' }]);
  });
});

describe('counters stay safe 53-bit integers', () => {
  it('a setup at version 9007199254740991 refuses a change with conflict (it used to store max int + 1)', async () => {
    svc = await gradedCourse();
    const setup = (await svc.call('GET', '/courses/c1/gradebook/setup')).body;
    await importDataset(svc.store, svc.clock, { coursebook: 1, gradebookSetups: [{ ...setup, version: MAX_INT }] }, { replace: true });
    const res = await svc.call('PUT', '/courses/c1/gradebook/setup', { ...setup, version: MAX_INT });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', details: { current: MAX_INT, limit: MAX_INT } });
    expect((await svc.call('GET', '/courses/c1/gradebook/setup')).body.version).toBe(MAX_INT);
  });

  it('a next attempt after attempt 9007199254740991 is refused with conflict', async () => {
    svc = await makeService({
      assignments: [{ id: 'a1', moduleId: 'm1', title: 'Quiz', status: 'published', points: 10 }],
      submissions: [{ id: 's1', assignmentId: 'a1', studentId: 'stu1', attempt: MAX_INT, submittedAt: '2026-11-02T10:00:00Z' }],
    });
    await svc.call('POST', '/courses/c1/publish');
    const res = await svc.call('POST', '/assignments/a1/submissions', { text: 'again' }, 'stu1');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
  });

  it('import refuses a final-override version above 4503599627370495, the largest expectedVersion a PUT takes', async () => {
    svc = await gradedCourse();
    const record = { courseId: 'c1', studentId: 'stu1', letter: 'A', percent: null, reason: 'r', updatedBy: 'inst', updatedAt: '2026-11-01T00:00:00Z' };
    const res = await svc.call('POST', '/import', { coursebook: 1, finalGrades: [{ ...record, version: 4503599627370496 }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'finalGrades[0].version', message: 'must be <= 4503599627370495' }]);
    expect((await svc.call('POST', '/import', { coursebook: 1, finalGrades: [{ ...record, version: 4503599627370495 }] })).status).toBe(200);
    const next = await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'again', expectedVersion: 4503599627370495, letter: 'B' });
    expect(next.status).toBe(409);
  });
});

describe('attempts past 32 bits pick the right submission of record, through the grade cells too', () => {
  it('attempt 2147483648 beats 2147483647, and 4294967296 reads as graded, on the first read and from the cells after it', async () => {
    const setup = defaultGradebookSetup('c1', '2026-11-01T00:00:00Z', 'inst');
    svc = await makeService({
      assignments: [
        { id: 'a1', moduleId: 'm1', title: 'Quiz', status: 'published', points: 10, categoryId: 'hw' },
        { id: 'a2', moduleId: 'm1', title: 'Essay', status: 'published', points: 10, categoryId: 'hw' },
      ],
      gradebookSetups: [
        {
          ...setup,
          categories: [
            { id: 'hw', courseId: 'c1', name: 'Homework', position: 0, weight: 100, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
          ],
        },
      ],
      submissions: [
        { id: 's1', assignmentId: 'a1', studentId: 'stu1', attempt: 2147483647, submittedAt: '2026-11-02T10:00:00Z', grade: { score: 5 } },
        { id: 's2', assignmentId: 'a1', studentId: 'stu1', attempt: 2147483648, submittedAt: '2026-11-03T10:00:00Z', grade: { score: 9 } },
        { id: 's3', assignmentId: 'a2', studentId: 'stu1', attempt: 4294967296, submittedAt: '2026-11-03T10:00:00Z', grade: { score: 7 } },
      ],
    });
    for (let read = 0; read < 2; read++) {
      const grades = await svc.call('GET', '/courses/c1/gradebook/grades');
      const stu1 = grades.body.students.find((s: { studentId: string }) => s.studentId === 'stu1');
      expect(stu1.items.map((i: { itemId: string; status: string; score: number }) => [i.itemId, i.status, i.score])).toEqual([
        ['a1', 'graded', 9],
        ['a2', 'graded', 7],
      ]);
      expect(stu1.percent).toBe(80);
    }
    expect(await value(svc.store, 'SELECT count(*) FROM grade_cells')).toBeGreaterThan(0);
  });
});

describe('through the CLI', () => {
  it('submissions grade with a script-made score prints the stored value, and grades and export exit 0', async () => {
    const store = await cliStore();
    try {
      const graded = JSON.parse(await store.ok(['--json', 'submissions', 'grade', 'sub_001', '--score', String(25 / 3)]));
      expect(graded.grade.score).toBe(8.333333);
      await store.ok(['gradebook', 'grades', 'crs_data101']);
      // asg_01 was handed in 3 days late: 10% of the 10 points possible per day comes off.
      expect(await store.ok(['gradebook', 'export', '--course', 'crs_data101'])).toContain(',5.333333,');
      const tooBig = await store.run(['submissions', 'grade', 'sub_001', '--score', '1e15']);
      expect(tooBig.code).toBe(3);
      expect(tooBig.stderr).toBe('error (invalid): --score: must be <= 1000000000\n');
    } finally {
      store.cleanup();
    }
  });
});
