import { afterEach, describe, expect, it } from 'vitest';
import { type DatasetRecord, makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const SCHEME = {
  id: 'std',
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
  ].map(([letter, min]) => ({ letter: String(letter), min: Number(min) })),
  rounding: { decimals: 1, mode: 'half-up' },
  letterFrom: 'rounded',
} satisfies DatasetRecord<'gradebookSetups'>['scheme'];

const setup = (over: Partial<DatasetRecord<'gradebookSetups'>> = {}): DatasetRecord<'gradebookSetups'> => ({
  courseId: 'c1',
  mode: 'weighted',
  categories: [
    { id: 'q', courseId: 'c1', name: 'Quizzes', position: 0, weight: 40, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
    { id: 'e', courseId: 'c1', name: 'Essays', position: 1, weight: 60, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
  ],
  late: { enabled: false, percentPerPeriod: 0, period: 'day', basis: 'possible', maxPeriods: null, afterMax: 'hold-at-max', graceMinutes: 0 },
  missing: { treatAs: 'zero-after-due', droppable: false },
  extraCredit: { categoryCapPercent: null, courseCapPoints: null },
  scheme: SCHEME,
  emptyCategory: 'share-weight',
  studentNotes: [],
  dismissedChecks: [],
  source: { kind: 'manual', designSessionId: null },
  version: 1,
  rulesVersion: 1,
  updatedBy: 'x',
  updatedAt: 'x',
  ...over,
});

const grade = (score: number) => ({ score, gradedBy: 'inst', gradedAt: '2026-11-15T00:00:00Z' });
const course = () =>
  makeService({
    assignments: [
      { id: 'a1', moduleId: 'm1', title: 'Quiz 1', status: 'published', points: 10, dueAt: '2026-11-01T23:59:00Z', categoryId: 'q' },
      { id: 'a2', moduleId: 'm1', title: 'Quiz 2', status: 'published', points: 10, dueAt: '2026-11-08T23:59:00Z', categoryId: 'q' },
      { id: 'a3', moduleId: 'm1', title: 'Essay, part "one"', status: 'published', points: 50, dueAt: '2026-11-10T23:59:00Z', categoryId: 'e' },
    ],
    submissions: [
      { id: 's1', assignmentId: 'a1', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-01T10:00:00Z', grade: grade(8) },
      { id: 's2', assignmentId: 'a2', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-08T10:00:00Z', grade: grade(9) },
      { id: 's3', assignmentId: 'a3', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-10T10:00:00Z', grade: grade(45) },
      { id: 's4', assignmentId: 'a1', studentId: 'stu2', attempt: 1, submittedAt: '2026-11-01T10:00:00Z', grade: grade(10) },
      { id: 's5', assignmentId: 'a3', studentId: 'stu2', attempt: 1, submittedAt: '2026-11-10T10:00:00Z' },
    ],
    gradebookSetups: [setup()],
  });

describe('gradebook setup', () => {
  it('every course has the default setup from the start', async () => {
    svc = await makeService();
    const created = await svc.call('POST', '/courses', { title: 'New' });
    const res = await svc.call('GET', `/courses/${created.body.id}/gradebook/setup`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      courseId: created.body.id,
      mode: 'points',
      categories: [
        {
          id: 'assignments',
          courseId: created.body.id,
          name: 'Assignments',
          position: 0,
          weight: 100,
          drop: { lowest: 0, highest: 0, keepAtLeast: 1 },
          lateApplies: true,
        },
      ],
      version: 1,
      rulesVersion: 1,
      late: { enabled: false, percentPerPeriod: 0, period: 'day', basis: 'possible', maxPeriods: null, afterMax: 'hold-at-max', graceMinutes: 0 },
      missing: { treatAs: 'exclude-until-graded', droppable: false },
      extraCredit: { categoryCapPercent: null, courseCapPoints: null },
      source: { kind: 'manual', designSessionId: null },
    });
    expect(res.body.scheme.bands.map((b: { letter: string; min: number }) => `${b.letter}${b.min}`).join(' ')).toBe(
      'A93 A-90 B+87 B83 B-80 C+77 C73 C-70 D+67 D63 D-60 F0',
    );
  });

  it('replace bumps the version and sets updatedBy/updatedAt itself', async () => {
    svc = await course();
    const res = await svc.call('PUT', '/courses/c1/gradebook/setup', setup({ version: 1, updatedBy: 'forged', updatedAt: 'forged' }), 'inst');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 2, updatedBy: 'inst', updatedAt: '2026-11-22T08:30:00.000Z' });
  });

  it('a stale version is conflict with the current version in details', async () => {
    svc = await course();
    const res = await svc.call('PUT', '/courses/c1/gradebook/setup', setup({ version: 0 }));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', details: { currentVersion: 1 } });
  });

  it('is strict at every level: an extra property anywhere is invalid and named', async () => {
    svc = await course();
    const s = setup() as Record<string, any>;
    s.late.bonus = 1;
    s.categories[0].drop.extra = true;
    s.colour = 'red';
    const res = await svc.call('PUT', '/courses/c1/gradebook/setup', s);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        { path: 'late.bonus', message: 'unknown field' },
        { path: 'categories[0].drop.extra', message: 'unknown field' },
        { path: 'colour', message: 'unknown field' },
      ]),
    );
  });

  it('checks limits: weight over 100, graceMinutes over 525600, 101 categories, keepAtLeast 0', async () => {
    svc = await course();
    const s = setup() as Record<string, any>;
    s.categories[0].weight = 100.5;
    s.late.graceMinutes = 525601;
    s.categories[1].drop.keepAtLeast = 0;
    const res = await svc.call('PUT', '/courses/c1/gradebook/setup', s);
    expect(res.status).toBe(400);
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['categories[0].weight', 'late.graceMinutes', 'categories[1].drop.keepAtLeast']));
    const many = setup({
      categories: Array.from({ length: 101 }, (_, i) => ({
        id: `k${i}`,
        courseId: 'c1',
        name: 'K',
        position: i,
        weight: 1,
        drop: { lowest: 0, highest: 0, keepAtLeast: 1 },
        lateApplies: true,
      })),
    });
    expect((await svc.call('PUT', '/courses/c1/gradebook/setup', many)).body.error.details).toEqual([
      { path: 'categories', message: 'must have at most 100 items' },
    ]);
  });

  it('courseId must match the path, category courseIds too, and category ids are unique', async () => {
    svc = await course();
    const s = setup({ courseId: 'other' }) as Record<string, any>;
    s.categories[1].courseId = 'other';
    s.categories[1].id = 'q';
    const res = await svc.call('PUT', '/courses/c1/gradebook/setup', s);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['courseId', 'categories[1].courseId', 'categories[1].id']);
  });

  it('an unknown rulesVersion is unsupported (415)', async () => {
    svc = await course();
    const res = await svc.call('PUT', '/courses/c1/gradebook/setup', setup({ rulesVersion: 2 }));
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported');
  });

  it('students and reviewers cannot read the setup (forbidden); outsiders get not-found', async () => {
    svc = await course();
    expect((await svc.call('GET', '/courses/c1/gradebook/setup', undefined, 'stu1')).status).toBe(403);
    expect((await svc.call('GET', '/courses/c1/gradebook/setup', undefined, 'rev')).status).toBe(403);
    expect((await svc.call('GET', '/courses/c1/gradebook/setup', undefined, 'out')).status).toBe(404);
  });
});

describe('setup checks and dismissals', () => {
  it('lists firing checks; dismissing bumps the version; dismissing again changes nothing; undo restores', async () => {
    svc = await course();
    // weights 40 + 50 = 90: weights-not-100 fires for the course
    await svc.call('PUT', '/courses/c1/gradebook/setup', setup({ categories: [{ ...setup().categories![0]! }, { ...setup().categories![1]!, weight: 50 }] }));
    const checks = await svc.call('GET', '/courses/c1/gradebook/setup/checks');
    expect(checks.status).toBe(200);
    expect(checks.body).toContainEqual(expect.objectContaining({ code: 'weights-not-100', target: 'course', dismissed: false }));

    const dismissed = await svc.call('POST', '/courses/c1/gradebook/setup/dismiss', { code: 'weights-not-100', target: 'course' }, 'inst');
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.version).toBe(3);
    expect(dismissed.body.dismissedChecks).toEqual([{ code: 'weights-not-100', target: 'course', by: 'inst', at: '2026-11-22T08:30:00.000Z' }]);
    const after = await svc.call('GET', '/courses/c1/gradebook/setup/checks');
    expect(after.body).toContainEqual(expect.objectContaining({ code: 'weights-not-100', dismissed: true }));

    const again = await svc.call('POST', '/courses/c1/gradebook/setup/dismiss', { code: 'weights-not-100', target: 'course' });
    expect(again.status).toBe(200);
    expect(again.body.version).toBe(3);

    const undo = await svc.call('DELETE', '/courses/c1/gradebook/setup/dismiss/weights-not-100/course');
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({ version: 4, dismissedChecks: [] });
    expect((await svc.call('DELETE', '/courses/c1/gradebook/setup/dismiss/weights-not-100/course')).status).toBe(404);
  });

  it('dismissing a check that does not fire is not-found naming code and target', async () => {
    svc = await course();
    const res = await svc.call('POST', '/courses/c1/gradebook/setup/dismiss', { code: 'late-no-cap', target: 'late' });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/late-no-cap.*late/);
  });

  it('an unknown code is invalid', async () => {
    svc = await course();
    const res = await svc.call('POST', '/courses/c1/gradebook/setup/dismiss', { code: 'nope', target: 'course' });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('code');
  });

  it("a setup's dismissals: each at a timestamp (normalised to UTC with milliseconds), each code and target once", async () => {
    svc = await course();
    const dismissal = { code: 'category-empty' as const, target: 'gone', by: 'inst' };
    const bad = await svc.call('PUT', '/courses/c1/gradebook/setup', setup({ dismissedChecks: [{ ...dismissal, at: 'not a time' }] }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ path: 'dismissedChecks[0].at', message: 'must be an RFC 3339 timestamp such as 2026-11-22T08:30:00Z' }]);
    const twice = await svc.call(
      'PUT',
      '/courses/c1/gradebook/setup',
      setup({
        dismissedChecks: [
          { ...dismissal, at: '2026-01-01T10:00:00Z' },
          { ...dismissal, at: '2026-01-02T10:00:00Z' },
        ],
      }),
    );
    expect(twice.status).toBe(400);
    expect(twice.body.error.details).toEqual([
      { path: 'dismissedChecks[1]', message: 'dismisses category-empty for "gone" again (dismissedChecks[0] already does); keep one' },
    ]);
    const offset = await svc.call('PUT', '/courses/c1/gradebook/setup', setup({ dismissedChecks: [{ ...dismissal, at: '2026-01-01T10:00:00+02:00' }] }));
    expect(offset.status).toBe(200);
    expect(offset.body.dismissedChecks).toEqual([{ ...dismissal, at: '2026-01-01T08:00:00.000Z' }]);
  });

  it('more than 200 dismissals is conflict', async () => {
    svc = await course();
    const filler = Array.from({ length: 200 }, (_, i) => ({ code: 'category-empty' as const, target: `gone${i}`, by: 'inst', at: '2026-11-01T00:00:00.000Z' }));
    const s = setup({
      dismissedChecks: filler,
      categories: [
        ...setup().categories!,
        { id: 'empty', courseId: 'c1', name: 'Empty', position: 2, weight: 0, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
      ],
    });
    expect((await svc.call('PUT', '/courses/c1/gradebook/setup', s)).status).toBe(200);
    const res = await svc.call('POST', '/courses/c1/gradebook/setup/dismiss', { code: 'category-empty', target: 'empty' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
  });
});

describe('grades and export', () => {
  // Sam (stu1): quizzes 8 + 9 = 17/20 = 85%, essay 45/50 = 90%; 0.4*85 + 0.6*90 = 88.0 -> B+
  // Tess (stu2): quiz 1 10/10, quiz 2 missing after its due date -> 0/10 => 50%; the essay is
  // submitted but not graded (pending, excluded) so Essays is empty and Quizzes takes all
  // the weight: 50.0 -> F.
  it('computes per category and course results with letters', async () => {
    svc = await course();
    const res = await svc.call('GET', '/courses/c1/gradebook/grades', undefined, 'inst');
    expect(res.status).toBe(200);
    const [sam, tess] = res.body.students;
    expect(sam).toMatchObject({ studentId: 'stu1', percent: 88, letter: 'B+', finalPercent: 88, finalLetter: 'B+', override: null });
    expect(tess).toMatchObject({ studentId: 'stu2', percent: 50, letter: 'F' });
  });

  it('exports the exact CSV layout', async () => {
    svc = await course();
    const res = await svc.call('GET', '/courses/c1/gradebook/export', undefined, 'inst');
    expect(res.status).toBe(200);
    expect(res.body.csv).toBe(
      [
        'Student,Student ID,Quiz 1 (a1),Quiz 2 (a2),"Essay, part ""one"" (a3)",Quizzes %,Essays %,Calculated %,Calculated Letter,Override %,Override Letter,Final %,Final Letter',
        'Points Possible,,10,10,50,,,,,,,,',
        'Sam Student,stu1,8,9,45,85.0,90.0,88.0,B+,,,88.0,B+',
        'Tess Student,stu2,10,0,,50.0,,50.0,F,,,50.0,F',
        '',
      ].join('\r\n'),
    );
  });

  it('a later export sees every change since the last one (regrades, a new submission)', async () => {
    svc = await course();
    const rows = async () => ((await svc.call('GET', '/courses/c1/gradebook/export', undefined, 'inst')).body.csv as string).split('\r\n');
    expect((await rows())[2]).toBe('Sam Student,stu1,8,9,45,85.0,90.0,88.0,B+,,,88.0,B+');
    // Regrade quiz 1 of Sam: 10 + 9 = 19/20 = 95%; 0.4 * 95 + 0.6 * 90 = 92.0 A-
    expect((await svc.call('PUT', '/submissions/s1/grade', { score: 10 }, 'inst')).status).toBe(200);
    expect((await rows())[2]).toBe('Sam Student,stu1,10,9,45,95.0,90.0,92.0,A-,,,92.0,A-');
    // Tess's essay gets graded 40/50: 80%; 0.4 * 50 + 0.6 * 80 = 68.0 D+
    expect((await svc.call('PUT', '/submissions/s5/grade', { score: 40 }, 'inst')).status).toBe(200);
    expect((await rows())[3]).toBe('Tess Student,stu2,10,0,40,50.0,80.0,68.0,D+,,,68.0,D+');
    // Tess submits quiz 2 (a new row): pending, so no longer a missing zero; quizzes 10/10 = 100%;
    // 0.4 * 100 + 0.6 * 80 = 88.0 B+. Graded 6/10: quizzes 16/20 = 80%; 0.4 * 80 + 0.6 * 80 = 80.0 B-
    const submitted = await svc.call('POST', '/assignments/a2/submissions', { text: 'late but here' }, 'stu2');
    expect(submitted.status).toBe(201);
    expect((await rows())[3]).toBe('Tess Student,stu2,10,,40,100.0,80.0,88.0,B+,,,88.0,B+');
    expect((await svc.call('PUT', `/submissions/${submitted.body.id}/grade`, { score: 6 }, 'inst')).status).toBe(200);
    expect((await rows())[3]).toBe('Tess Student,stu2,10,6,40,80.0,80.0,80.0,B-,,,80.0,B-');
  });

  it('an override shows in the export without changing the calculated columns', async () => {
    svc = await course();
    const set = await svc.call(
      'PUT',
      '/courses/c1/gradebook/students/stu2/final',
      { reason: 'Medical', expectedVersion: 0, letter: 'D-', percent: null },
      'inst',
    );
    expect(set.body).toEqual({ ok: true, version: 1 });
    const csv = (await svc.call('GET', '/courses/c1/gradebook/export')).body.csv as string;
    expect(csv.split('\r\n')[3]).toBe('Tess Student,stu2,10,0,,50.0,,50.0,F,,D-,50.0,D-');
    await svc.call('PUT', '/courses/c1/gradebook/students/stu2/final', { reason: 'Regrade', expectedVersion: 1, letter: null, percent: 61.25 }, 'inst');
    const csv2 = (await svc.call('GET', '/courses/c1/gradebook/export')).body.csv as string;
    // 61.25 -> 61.3 (half-up) -> D-
    expect(csv2.split('\r\n')[3]).toBe('Tess Student,stu2,10,0,,50.0,,50.0,F,61.3,,61.3,D-');
  });
});

describe("a student's own view", () => {
  it('counts released grades only; others are pending', async () => {
    svc = await course();
    // Release quiz 2 (9/10) and the essay (45/50); quiz 1 (8/10) stays unreleased.
    for (const id of ['s2', 's3']) expect((await svc.call('POST', `/submissions/${id}/release`, undefined, 'inst')).status).toBe(200);
    const res = await svc.call('GET', '/courses/c1/gradebook/me', undefined, 'stu1');
    expect(res.status).toBe(200);
    // quizzes 9/10 = 90%, essay 90%: 90.0 A-
    expect(res.body).toMatchObject({ studentId: 'stu1', percent: 90, letter: 'A-' });
    expect(res.body.items.find((i: { itemId: string }) => i.itemId === 'a1').status).toBe('pending');
    expect(res.body).not.toHaveProperty('cells');
    expect((await svc.call('GET', '/courses/c1/gradebook/me', undefined, 'inst')).status).toBe(403);
  });
});

describe('final grade overrides', () => {
  it('has a version per student, a conflict for a stale one, and an append-only history', async () => {
    svc = await course();
    expect((await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'r1', expectedVersion: 0, letter: 'A' })).body).toEqual({
      ok: true,
      version: 1,
    });
    const stale = await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'r2', expectedVersion: 0, letter: 'B' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.details).toEqual({ currentVersion: 1 });
    expect((await svc.call('PUT', '/courses/c1/gradebook/students/stu2/final', { reason: 'other', expectedVersion: 0, percent: 70 })).body.version).toBe(1);
    const cleared = await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'clear', expectedVersion: 1, letter: null, percent: null });
    expect(cleared.body).toEqual({ ok: true, version: 2 });
    const history = await svc.call('GET', '/courses/c1/gradebook/students/stu1/final/history');
    expect(history.body).toEqual([
      expect.objectContaining({ version: 1, oldLetter: null, newLetter: 'A', reason: 'r1', by: 'admin' }),
      expect.objectContaining({ version: 2, oldLetter: 'A', newLetter: null, newPercent: null, reason: 'clear' }),
    ]);
    const grades = await svc.call('GET', '/courses/c1/gradebook/grades');
    expect(grades.body.students[0].override).toBeNull();
  });

  it('rejects a letter outside the scheme, a missing reason, and a non-student', async () => {
    svc = await course();
    const bad = await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: 'x', expectedVersion: 0, letter: 'E' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('letter');
    const noReason = await svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { expectedVersion: 0, letter: 'A' });
    expect(noReason.body.error.details).toEqual([{ path: 'reason', message: 'is required' }]);
    expect((await svc.call('PUT', '/courses/c1/gradebook/students/inst/final', { reason: 'x', expectedVersion: 0, letter: 'A' })).status).toBe(404);
    expect((await svc.call('PUT', '/courses/c1/gradebook/students/nobody/final', { reason: 'x', expectedVersion: 0, letter: 'A' })).status).toBe(404);
  });

  it('20 parallel writes with the same expectedVersion: exactly one succeeds', async () => {
    svc = await course();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        svc.call('PUT', '/courses/c1/gradebook/students/stu1/final', { reason: `writer ${i}`, expectedVersion: 0, percent: 50 + i }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const history = await svc.call('GET', '/courses/c1/gradebook/students/stu1/final/history');
    expect(history.body).toHaveLength(1);
  });
});
