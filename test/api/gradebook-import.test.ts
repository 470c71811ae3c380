/**
 * POST /courses/{courseId}/gradebook/import (issue #13): a cell changes only where it
 * differs from what the export prints now; a changed cell is stored as entered (before
 * any late deduction); blanks are left alone; everything is checked first and written in
 * one transaction; dryRun plans only.
 *
 * The course (points mode, one category, late -10% of possible per day, at most 2 days,
 * then missing; missing work counts 0), now = 2026-11-22T08:30Z:
 *   a1 Quiz 1 (10, due 11-01)  a2 Quiz 2 (10, due 11-10)  a3 Essay (20, due 11-15)
 *   a4 Bonus (0: extra credit)  a5 Draft (unpublished)  a6 Later (10, due 12-01)
 * stu1: a1 8 on time; a2 9 submitted 30 h late (2 days: -2, prints 7); a3 nothing (missing: 0);
 *       a4 2; a6 nothing (not due: blank).
 * stu2: a1 submitted, not graded (blank); a2 10 on time, then attempt 2 two days late, not
 *       graded (prints 10); a3 18 five days late (past the cap: missing, prints 0).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readGradesSheet } from '../../src/domain/grading/import-csv.js';
import { defaultGradebookSetup } from '../../src/domain/grading/index.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const setup = {
  ...defaultGradebookSetup('c1', '2026-11-01T00:00:00.000Z', 'inst'),
  categories: [{ id: 'q', courseId: 'c1', name: 'Quizzes', position: 0, weight: 100, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true }],
  late: {
    enabled: true,
    percentPerPeriod: 10,
    period: 'day' as const,
    basis: 'possible' as const,
    maxPeriods: 2,
    afterMax: 'missing' as const,
    graceMinutes: 0,
  },
  missing: { treatAs: 'zero-after-due' as const, droppable: false },
};

const graded = (score: number, releasedAt?: string) => ({ score, gradedBy: 'inst', gradedAt: '2026-11-20T00:00:00Z', ...(releasedAt ? { releasedAt } : {}) });

const course = (options: Parameters<typeof makeService>[1] = {}) =>
  makeService(
    {
      courses: [
        { id: 'c1', title: 'Course One' },
        { id: 'c2', title: 'Course Two' },
      ],
      modules: [{ id: 'mx', courseId: 'c2', title: 'Elsewhere' }],
      assignments: [
        { id: 'a1', moduleId: 'm1', title: 'Quiz 1', status: 'published', points: 10, dueAt: '2026-11-01T00:00:00Z', categoryId: 'q' },
        { id: 'a2', moduleId: 'm1', title: 'Quiz 2', status: 'published', points: 10, dueAt: '2026-11-10T00:00:00Z', categoryId: 'q' },
        { id: 'a3', moduleId: 'm1', title: 'Essay', status: 'published', points: 20, dueAt: '2026-11-15T00:00:00Z', categoryId: 'q' },
        { id: 'a4', moduleId: 'm1', title: 'Bonus', status: 'published', points: 0, categoryId: 'q' },
        { id: 'a5', moduleId: 'm1', title: 'Draft', status: 'draft', points: 10, categoryId: 'q' },
        { id: 'a6', moduleId: 'm1', title: 'Later', status: 'published', points: 10, dueAt: '2026-12-01T00:00:00Z', categoryId: 'q' },
        { id: 'ax', moduleId: 'mx', title: 'Other course', status: 'published', points: 5 },
      ],
      submissions: [
        { id: 's11', assignmentId: 'a1', studentId: 'stu1', attempt: 1, submittedAt: '2026-10-31T12:00:00Z', grade: graded(8, '2026-11-21T00:00:00Z') },
        { id: 's12', assignmentId: 'a2', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-11T06:00:00Z', grade: graded(9) },
        { id: 's14', assignmentId: 'a4', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-01T00:00:00Z', grade: graded(2) },
        { id: 's21', assignmentId: 'a1', studentId: 'stu2', attempt: 1, submittedAt: '2026-10-31T00:00:00Z' },
        { id: 's22', assignmentId: 'a2', studentId: 'stu2', attempt: 1, submittedAt: '2026-11-09T00:00:00Z', grade: graded(10) },
        { id: 's22b', assignmentId: 'a2', studentId: 'stu2', attempt: 2, submittedAt: '2026-11-12T00:00:00Z' },
        { id: 's23', assignmentId: 'a3', studentId: 'stu2', attempt: 1, submittedAt: '2026-11-20T00:00:00Z', grade: graded(18) },
      ],
      gradebookSetups: [setup],
    },
    options,
  );

const ITEMS = ['a1', 'a2', 'a3', 'a4', 'a6'].map((itemId, j) => ({ itemId, column: j + 3 }));
const exportCsv = async () => (await svc.call('GET', '/courses/c1/gradebook/export')).body.csv as string;
const importing = (body: Record<string, unknown>, as = 'inst') => svc.call('POST', '/courses/c1/gradebook/import', body, as);

describe('the export this course prints', () => {
  it('is what the header comment says (late deductions and missing zeros included)', async () => {
    svc = await course();
    expect(await exportCsv()).toBe(
      [
        'Student,Student ID,Quiz 1 (a1),Quiz 2 (a2),Essay (a3),Bonus (a4),Later (a6),Quizzes %,Calculated %,Calculated Letter,Override %,Override Letter,Final %,Final Letter',
        'Points Possible,,10,10,20,0,10,,,,,,,',
        'Sam Student,stu1,8,7,0,2,,42.5,42.5,F,,,42.5,F',
        'Tess Student,stu2,,10,0,,,33.3,33.3,F,,,33.3,F',
        '',
      ].join('\r\n'),
    );
  });
});

describe('POST .../gradebook/import', () => {
  it('the export imported unedited changes nothing: every printed cell is unchanged, every empty one blank', async () => {
    svc = await course();
    const sheet = readGradesSheet(await exportCsv());
    expect(sheet.problems).toEqual([]);
    const res = await importing({ items: sheet.items, rows: sheet.rows });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ dryRun: false, plan: expect.any(String), changes: [], unchanged: 6, blank: 4 });
  });

  it('sets each changed cell as entered: regrades, grades the latest attempt, creates graded submissions; blanks stay', async () => {
    svc = await course();
    const before = await exportCsv();
    const res = await importing({
      items: ITEMS,
      rows: [
        // a1 8 -> 9; a2 7 -> 8 (late: stored 8, prints 6); a3 0 -> 15 (new); a4 cleared (blank: kept); a6 new 7
        { studentId: 'stu1', row: 3, scores: [9, 8, 15, null, 7] },
        // a1 (ungraded) -> 6; a2 10 -> 9 grades attempt 2 (two days late: prints 7); a3 0 -> 19, still past the cap (0)
        { studentId: 'stu2', row: 4, scores: [6, 9, 19, null, null] },
      ],
    });
    expect(res.status).toBe(200);
    const change = (studentId: string, itemId: string, rest: Record<string, unknown>) => ({
      studentId,
      studentName: studentId === 'stu1' ? 'Sam Student' : 'Tess Student',
      itemId,
      itemTitle: { a1: 'Quiz 1', a2: 'Quiz 2', a3: 'Essay', a6: 'Later' }[itemId],
      row: studentId === 'stu1' ? 3 : 4,
      column: ITEMS.find((i) => i.itemId === itemId)!.column,
      late: null,
      status: 'graded',
      ...rest,
    });
    expect(res.body).toEqual({
      dryRun: false,
      plan: expect.any(String),
      changes: [
        change('stu1', 'a1', { action: 'regrade', from: 8, to: 9, after: 9, submissionId: 's11' }),
        change('stu1', 'a2', { action: 'regrade', from: 7, to: 8, after: 6, late: { periods: 2, deduction: 2 }, submissionId: 's12' }),
        change('stu1', 'a3', { action: 'create', from: 0, to: 15, after: 15, submissionId: expect.stringMatching(/^sub_/) }),
        change('stu1', 'a6', { action: 'create', from: null, to: 7, after: 7, submissionId: expect.stringMatching(/^sub_/) }),
        change('stu2', 'a1', { action: 'grade', from: null, to: 6, after: 6, submissionId: 's21' }),
        change('stu2', 'a2', { action: 'grade', from: 10, to: 9, after: 7, late: { periods: 2, deduction: 2 }, submissionId: 's22b' }),
        change('stu2', 'a3', { action: 'regrade', from: 0, to: 19, after: 0, late: { periods: 5, deduction: 19 }, status: 'missing', submissionId: 's23' }),
      ],
      unchanged: 0,
      blank: 3,
    });
    // The export now prints the new cells (stu1's Bonus stays 2: a blank cell changes nothing).
    const rows = (await exportCsv()).split('\r\n');
    // stu1: (9 + 6 + 15 + 7 + 2 extra) / (10 + 10 + 20 + 10) = 39/50 = 78.0 C+; stu2: (6 + 7 + 0) / 40 = 32.5.
    expect(rows[2]).toBe('Sam Student,stu1,9,6,15,2,7,78.0,78.0,C+,,,78.0,C+');
    expect(rows[3]).toBe('Tess Student,stu2,6,7,0,,,32.5,32.5,F,,,32.5,F');
    expect(before).not.toBe(rows.join('\r\n'));
  });

  it('keeps what a regrade does not change: criteria, feedback, release (a returned grade stays returned)', async () => {
    svc = await course();
    await importing({ items: [ITEMS[0]], rows: [{ studentId: 'stu1', row: 3, scores: [9.5] }] });
    const sub = (await svc.call('GET', '/submissions/s11')).body;
    expect(sub).toMatchObject({
      state: 'returned',
      grade: { score: 9.5, gradedBy: 'inst', gradedAt: '2026-11-22T08:30:00.000Z', releasedAt: '2026-11-21T00:00:00.000Z' },
    });
  });

  it('a created submission is graded, unreleased, dated at the due date when that has passed (never late), else now', async () => {
    svc = await course();
    const res = await importing({ items: [ITEMS[2], ITEMS[4]], rows: [{ studentId: 'stu1', scores: [15, 7] }] });
    const [essay, later] = await Promise.all(res.body.changes.map((c: { submissionId: string }) => svc.call('GET', `/submissions/${c.submissionId}`)));
    expect(essay!.body).toMatchObject({ attempt: 1, state: 'graded', submittedAt: '2026-11-15T00:00:00.000Z', grade: { score: 15, releasedAt: null } });
    expect(later!.body).toMatchObject({ attempt: 1, state: 'graded', submittedAt: '2026-11-22T08:30:00.000Z', grade: { score: 7 } });
  });

  it('dryRun answers the same plan and writes nothing; expectedPlan guards the apply against a changed gradebook', async () => {
    svc = await course();
    const body = { items: ITEMS, rows: [{ studentId: 'stu1', row: 3, scores: [9, 7, 15, 2, null] }] };
    const dry = await importing({ ...body, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, unchanged: 2, blank: 1 });
    expect(dry.body.changes.map((c: Record<string, unknown>) => [c.itemId, c.action, c.from, c.to, c.after, c.submissionId])).toEqual([
      ['a1', 'regrade', 8, 9, 9, 's11'],
      ['a3', 'create', 0, 15, 15, null],
    ]);
    expect((await exportCsv()).split('\r\n')[2]).toBe('Sam Student,stu1,8,7,0,2,,42.5,42.5,F,,,42.5,F');
    // Someone grades a1 in between: the plan changes, so the apply is refused.
    await svc.call('PUT', '/submissions/s11/grade', { score: 10 }, 'inst');
    const stale = await importing({ ...body, expectedPlan: dry.body.plan });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'conflict',
      message: 'The gradebook changed since this import was planned (it would now make 2 changes); nothing was written. Plan it again.',
    });
    expect((await svc.call('GET', '/submissions/s11')).body.grade.score).toBe(10);
    const again = await importing({ ...body, dryRun: true });
    const applied = await importing({ ...body, expectedPlan: again.body.plan });
    expect(applied.status).toBe(200);
    expect(applied.body.plan).toBe(again.body.plan);
  });

  it('lists every bad cell, row and column (unknown ids, other course, draft, not a student, negative, repeats) and writes nothing', async () => {
    svc = await course();
    const res = await importing({
      items: [
        { itemId: 'a1', column: 3 },
        { itemId: 'nope', column: 4 },
        { itemId: 'ax', column: 5 },
        { itemId: 'a5', column: 6 },
        { itemId: 'a1', column: 7 },
      ],
      rows: [
        { studentId: 'stu1', row: 3, scores: [-1, null, null, null, null] },
        { studentId: 'ghost', row: 4, scores: [1, 1, 1, 1, 1] },
        { studentId: 'inst', row: 5, scores: [1, 1, 1, 1, 1] },
        { studentId: 'stu1', row: 6, scores: [5, null, null, null, null] },
        { studentId: 'stu2', row: 7, scores: [5] },
        { studentId: 'stu2', scores: [9, null, null, null, null] },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid');
    expect(res.body.error.message).toBe('10 cells or columns cannot be imported; nothing was written.');
    expect(res.body.error.details).toEqual([
      { path: 'items[1].itemId', message: 'column D (nope): no assignment "nope"' },
      { path: 'items[2].itemId', message: 'column E (ax): assignment "ax" is not in course "c1"' },
      { path: 'items[3].itemId', message: 'column F (a5): assignment "a5" is a draft; only published assignments are in the gradebook' },
      { path: 'items[4].itemId', message: 'column G (a1): the same item as column C' },
      { path: 'rows[0].scores[0]', message: 'row 3, column C: -1 is negative; a score is 0 or more' },
      { path: 'rows[1].studentId', message: 'row 4: no user "ghost"' },
      { path: 'rows[2].studentId', message: 'row 5: "inst" is not a student of course "c1"' },
      { path: 'rows[3].studentId', message: 'row 6: student "stu1" is also in row 3' },
      { path: 'rows[4].scores', message: 'row 7: 1 scores for 5 item columns' },
      { path: 'rows[5].studentId', message: 'rows[5]: student "stu2" is also in row 7' },
    ]);
    expect((await exportCsv()).split('\r\n')[2]).toBe('Sam Student,stu1,8,7,0,2,,42.5,42.5,F,,,42.5,F');
  });

  it('a single problem is the message itself', async () => {
    svc = await course();
    const res = await importing({ items: [ITEMS[0]], rows: [{ studentId: 'stu1', row: 3, scores: [-2] }] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('row 3, column C: -2 is negative; a score is 0 or more; nothing was written.');
  });

  it('the body is the request schema: a string score is invalid naming its path', async () => {
    svc = await course();
    const res = await importing({ items: [ITEMS[0]], rows: [{ studentId: 'stu1', scores: ['8'] }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'rows[0].scores[0]', message: 'must be a number' }]);
  });

  it('a score over 1,000,000,000 is refused at its cell, as every other score path refuses it, and nothing is written', async () => {
    svc = await course();
    const res = await importing({ items: [ITEMS[0], ITEMS[1]], rows: [{ studentId: 'stu1', row: 3, scores: [2e9, 1e15] }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'rows[0].scores[0]', message: 'row 3, column C: 2000000000 is over the largest score, 1000000000' },
      { path: 'rows[0].scores[1]', message: 'row 3, column D: 1000000000000000 is over the largest score, 1000000000' },
    ]);
    expect((await svc.call('GET', '/submissions/s11')).body.grade.score).toBe(8);
  });

  it('a score is stored rounded half-up to 6 decimals of what the cell says, as every other score is', async () => {
    svc = await course();
    const res = await importing({ items: [ITEMS[0]], rows: [{ studentId: 'stu1', row: 3, scores: [1.2345675] }] });
    expect(res.status).toBe(200);
    expect(res.body.changes).toMatchObject([{ studentId: 'stu1', itemId: 'a1', from: 8, to: 1.234568 }]);
    expect((await svc.call('GET', '/submissions/s11')).body.grade.score).toBe(1.234568);
    // The same cell again is what the export now prints: no change.
    const again = await importing({ items: [ITEMS[0]], rows: [{ studentId: 'stu1', row: 3, scores: [1.2345675] }] });
    expect([again.body.changes.length, again.body.unchanged]).toEqual([0, 1]);
  });

  it('takes a whole gradebook: the import body limit applies, not --max-body', async () => {
    svc = await course({ maxBody: 100 });
    const res = await importing({ items: ITEMS, rows: [{ studentId: 'stu1', row: 3, scores: [8, 7, 0, 2, null] }] });
    expect(res.status).toBe(200);
    expect((await svc.call('POST', '/courses', { title: 'x'.repeat(200) })).status).toBe(413);
  });

  it('a reviewer or a student may not import (403); an outsider does not see the course (404)', async () => {
    svc = await course();
    const body = { items: [ITEMS[0]], rows: [{ studentId: 'stu1', scores: [10] }] };
    expect((await importing(body, 'rev')).status).toBe(403);
    expect((await importing(body, 'stu1')).status).toBe(403);
    expect((await importing(body, 'out')).status).toBe(404);
    expect((await exportCsv()).split('\r\n')[2]!.startsWith('Sam Student,stu1,8,')).toBe(true);
  });
});
