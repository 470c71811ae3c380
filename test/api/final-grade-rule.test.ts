/**
 * The final-grade rule, seen through both of its readers: the staff grades view (JSON) and
 * the CSV export must agree. An override percent is rounded half-up to one decimal by its
 * decimal digits (89.95 is 90.0, although the double 89.95 is a hair below it), and the final
 * letter comes from that rounded value unless a letter override is given.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const STANDARD_BANDS = [
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
] as const;

/** One quiz worth 10 in a single 100% category; Sam (stu1) scored 8, so his calculated grade is 80.0, B-. */
function courseWithOneGrade(): Promise<TestService> {
  return makeService({
    assignments: [{ id: 'a1', moduleId: 'm1', title: 'Quiz 1', status: 'published', points: 10, dueAt: '2026-11-01T23:59:00Z', categoryId: 'q' }],
    submissions: [
      {
        id: 's1',
        assignmentId: 'a1',
        studentId: 'stu1',
        attempt: 1,
        submittedAt: '2026-11-01T10:00:00Z',
        grade: { score: 8, gradedBy: 'inst', gradedAt: '2026-11-15T00:00:00Z' },
      },
    ],
    gradebookSetups: [
      {
        courseId: 'c1',
        mode: 'weighted',
        categories: [
          { id: 'q', courseId: 'c1', name: 'Quizzes', position: 0, weight: 100, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
        ],
        late: { enabled: false, percentPerPeriod: 0, period: 'day', basis: 'possible', maxPeriods: null, afterMax: 'hold-at-max', graceMinutes: 0 },
        missing: { treatAs: 'exclude-until-graded', droppable: false },
        extraCredit: { categoryCapPercent: null, courseCapPoints: null },
        scheme: {
          id: 'std',
          name: 'Standard',
          bands: STANDARD_BANDS.map(([letter, min]) => ({ letter, min })),
          rounding: { decimals: 1, mode: 'half-up' },
          letterFrom: 'rounded',
        },
        emptyCategory: 'share-weight',
        studentNotes: [],
        dismissedChecks: [],
        source: { kind: 'manual', designSessionId: null },
        version: 1,
        rulesVersion: 1,
        updatedBy: 'inst',
        updatedAt: '2026-11-01T00:00:00.000Z',
      },
    ],
  });
}

/** Sam's final grade as the grades view shows it and as the export writes it. */
async function finalGradeOfSam(service: TestService) {
  const grades = await service.call('GET', '/courses/c1/gradebook/grades', undefined, 'inst');
  expect(grades.status).toBe(200);
  const sam = grades.body.students.find((s: { studentId: string }) => s.studentId === 'stu1');
  const exported = await service.call('GET', '/courses/c1/gradebook/export', undefined, 'inst');
  expect(exported.status).toBe(200);
  const header = (exported.body.csv as string).split('\r\n')[0]!.split(',');
  const row = (exported.body.csv as string)
    .split('\r\n')
    .find((line) => line.startsWith('Sam Student,stu1,'))!
    .split(',');
  const column = (name: string) => row[header.indexOf(name)];
  return {
    api: { finalPercent: sam.finalPercent, finalLetter: sam.finalLetter },
    csv: { overridePercent: column('Override %'), finalPercent: column('Final %'), finalLetter: column('Final Letter') },
  };
}

async function overrideSam(service: TestService, override: { percent: number | null; letter: string | null }) {
  const res = await service.call(
    'PUT',
    '/courses/c1/gradebook/students/stu1/final',
    { reason: 'Agreed with the student', expectedVersion: 0, ...override },
    'inst',
  );
  expect(res.status).toBe(200);
}

describe('the final grade rule: the grades view and the export agree', () => {
  it('without an override the final grade is the calculated one (8/10 = 80.0, B-)', async () => {
    svc = await courseWithOneGrade();
    expect(await finalGradeOfSam(svc)).toEqual({
      api: { finalPercent: 80, finalLetter: 'B-' },
      csv: { overridePercent: '', finalPercent: '80.0', finalLetter: 'B-' },
    });
  });

  it.each([
    // 89.96 rounds up to 90.0, which is an A- (90 and over), not the B+ of 89.96 itself
    { percent: 89.96, finalPercent: 90, text: '90.0', letter: 'A-' },
    // exactly half a tenth rounds up, although the double nearest 89.95 is 89.9499999999999957...
    { percent: 89.95, finalPercent: 90, text: '90.0', letter: 'A-' },
    { percent: 89.94, finalPercent: 89.9, text: '89.9', letter: 'B+' },
    { percent: 61.25, finalPercent: 61.3, text: '61.3', letter: 'D-' },
    { percent: 70, finalPercent: 70, text: '70.0', letter: 'C-' },
  ])('an override of $percent% is final $text, $letter', async ({ percent, finalPercent, text, letter }) => {
    svc = await courseWithOneGrade();
    await overrideSam(svc, { percent, letter: null });
    expect(await finalGradeOfSam(svc)).toEqual({
      api: { finalPercent, finalLetter: letter },
      csv: { overridePercent: text, finalPercent: text, finalLetter: letter },
    });
  });

  it('a letter override wins over the letter of the override percent', async () => {
    svc = await courseWithOneGrade();
    await overrideSam(svc, { percent: 89.96, letter: 'B' });
    expect(await finalGradeOfSam(svc)).toEqual({
      api: { finalPercent: 90, finalLetter: 'B' },
      csv: { overridePercent: '90.0', finalPercent: '90.0', finalLetter: 'B' },
    });
  });

  it('a letter override alone keeps the calculated percent', async () => {
    svc = await courseWithOneGrade();
    await overrideSam(svc, { percent: null, letter: 'A' });
    expect(await finalGradeOfSam(svc)).toEqual({
      api: { finalPercent: 80, finalLetter: 'A' },
      csv: { overridePercent: '', finalPercent: '80.0', finalLetter: 'A' },
    });
  });
});

describe("an override's letter is one of the course's scheme (read by the database from the setup, on both dialects)", () => {
  const put = (service: TestService, body: Record<string, unknown>, course = 'c1') =>
    service.call('PUT', `/courses/${course}/gradebook/students/stu1/final`, { reason: 'Appeal', expectedVersion: 0, ...body }, 'inst');

  it('a letter of the scheme is taken, one that is not is refused naming the scheme in its order, and clearing needs none', async () => {
    svc = await courseWithOneGrade();
    const refused = await put(svc, { letter: 'E', percent: null });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'invalid',
      message: `letter: "E" is not a letter of the course's scheme (${STANDARD_BANDS.map(([l]) => l).join(', ')})`,
      details: [{ path: 'letter', message: `must be one of ${STANDARD_BANDS.map(([l]) => l).join(', ')}` }],
    });
    // Letters are compared whole: a prefix of one, or one in another case, is not one.
    expect((await put(svc, { letter: 'A-', percent: null })).status).toBe(200);
    for (const letter of ['a', 'A+', '']) expect((await put(svc, { letter, percent: null, expectedVersion: 1 })).status).toBe(400);
    expect((await put(svc, { letter: null, percent: 91, expectedVersion: 1 })).body).toEqual({ ok: true, version: 2 });
    expect(await finalGradeOfSam(svc)).toMatchObject({ api: { finalPercent: 91, finalLetter: 'A-' } });
  });

  it('a course without a gradebook setup has no final grades to set', async () => {
    svc = await courseWithOneGrade();
    // Every course is given a setup when it is made; a store's row can still be missing.
    await svc.store.run('DELETE FROM gradebook_setups WHERE course_id = ?', 'c1');
    const res = await put(svc, { letter: 'A', percent: null });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Course "c1" has no gradebook setup.');
  });
});
