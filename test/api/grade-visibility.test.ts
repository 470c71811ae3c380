/**
 * #17: the submitting student sees a grade (score, criteria, feedback) only once it is
 * released, on every route that answers a submission, as /gradebook/me always did.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { submissionForViewer } from '../../src/domain/content/submission-view.js';
import type { SubmissionValue } from '../../src/schemas/content.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const RUBRIC = [
  {
    id: 'acc',
    title: 'Accuracy',
    description: '',
    levels: [
      { id: 'full', title: 'Full', points: 6, description: '' },
      { id: 'half', title: 'Half', points: 3, description: '' },
    ],
  },
];

function graded(overrides: Partial<NonNullable<SubmissionValue['grade']>> = {}): SubmissionValue {
  return {
    id: 's1',
    assignmentId: 'a1',
    studentId: 'stu1',
    attempt: 1,
    state: 'graded',
    text: 'my essay',
    fileId: null,
    link: null,
    submittedAt: '2026-11-20T00:00:00.000Z',
    grade: {
      score: 6,
      criteria: [{ criterionId: 'acc', levelId: 'full', points: 6, comment: 'precise' }],
      feedback: 'Well argued',
      feedbackOrigin: 'human',
      feedbackProvenance: null,
      gradedBy: 'inst',
      gradedAt: '2026-11-21T00:00:00.000Z',
      releasedAt: null,
      ...overrides,
    },
  };
}

describe('submissionForViewer (the one home of the rule)', () => {
  it('hides an unreleased grade from the student: no grade and state submitted; the work itself stays', () => {
    const seen = submissionForViewer(graded(), { role: 'student' });
    expect(seen).toEqual({ ...graded(), state: 'submitted', grade: null });
    expect(seen.text).toBe('my essay');
  });

  it('shows a released grade to the student unchanged', () => {
    const released = { ...graded({ releasedAt: '2026-11-22T00:00:00.000Z' }), state: 'returned' as const };
    expect(submissionForViewer(released, { role: 'student' })).toBe(released);
  });

  it('shows everything to instructors and admins, released or not', () => {
    const sub = graded();
    for (const role of ['instructor', 'admin'] as const) expect(submissionForViewer(sub, { role })).toBe(sub);
    expect(submissionForViewer(graded(), { role: 'instructor' }).grade?.score).toBe(6);
    expect(submissionForViewer(graded(), { role: 'admin' }).grade?.feedback).toBe('Well argued');
  });

  it('an ungraded submission is the same for everyone', () => {
    const fresh = { ...graded(), state: 'submitted' as const, grade: null };
    expect(submissionForViewer(fresh, { role: 'student' })).toBe(fresh);
  });
});

describe('every route that answers a submission, as the submitting student', () => {
  async function gradedSubmission() {
    svc = await makeService({ assignments: [{ id: 'a1', moduleId: 'm1', title: 'Essay', points: 6, status: 'published', rubric: RUBRIC }] });
    const sub = (await svc.call('POST', '/assignments/a1/submissions', { text: 'my essay' }, 'stu1')).body;
    const grade = await svc.call(
      'PUT',
      `/submissions/${sub.id}/grade`,
      { criteria: [{ criterionId: 'acc', levelId: 'half', comment: 'thin' }], feedback: 'More sources' },
      'inst',
    );
    expect(grade.status).toBe(200);
    expect(grade.body.grade).toMatchObject({ score: 3, feedback: 'More sources' }); // the instructor sees it
    return sub.id as string;
  }

  it('GET /submissions/{id} and GET /assignments/{id}/submissions: no score, criteria or feedback before release', async () => {
    const id = await gradedSubmission();
    const one = await svc.call('GET', `/submissions/${id}`, undefined, 'stu1');
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id, state: 'submitted', grade: null, text: 'my essay' });
    const list = await svc.call('GET', '/assignments/a1/submissions', undefined, 'stu1');
    expect(list.body).toEqual([one.body]);
    expect(JSON.stringify(list.body)).not.toMatch(/More sources|thin/);
    // Staff still see the grade through the same routes.
    expect((await svc.call('GET', `/submissions/${id}`, undefined, 'inst')).body.grade.score).toBe(3);
    expect((await svc.call('GET', '/assignments/a1/submissions', undefined, 'admin')).body[0].grade.feedback).toBe('More sources');
  });

  it('after release the student sees the whole grade on both routes, and on a regrade at once', async () => {
    const id = await gradedSubmission();
    await svc.call('POST', `/submissions/${id}/release`, undefined, 'inst');
    const one = await svc.call('GET', `/submissions/${id}`, undefined, 'stu1');
    expect(one.body).toMatchObject({
      state: 'returned',
      grade: {
        score: 3,
        feedback: 'More sources',
        criteria: [{ criterionId: 'acc', levelId: 'half', points: 3, comment: 'thin' }],
        releasedAt: '2026-11-22T08:30:00.000Z',
      },
    });
    expect((await svc.call('GET', '/assignments/a1/submissions', undefined, 'stu1')).body[0].grade.score).toBe(3);
    // A regrade of a returned submission stays returned: the student already sees grades for it.
    await svc.call('PUT', `/submissions/${id}/grade`, { score: 5 }, 'inst');
    expect((await svc.call('GET', `/submissions/${id}`, undefined, 'stu1')).body.grade.score).toBe(5);
  });

  it('a second attempt: the released first attempt shows its grade, the unreleased second does not', async () => {
    const first = await gradedSubmission();
    await svc.call('POST', `/submissions/${first}/release`, undefined, 'inst');
    const second = (await svc.call('POST', '/assignments/a1/submissions', { text: 'better essay' }, 'stu1')).body;
    expect(second).toMatchObject({ attempt: 2, state: 'submitted', grade: null });
    await svc.call('PUT', `/submissions/${second.id}/grade`, { score: 6 }, 'inst');
    const list = (await svc.call('GET', '/assignments/a1/submissions', undefined, 'stu1')).body;
    expect(list.map((s: SubmissionValue) => [s.attempt, s.state, s.grade?.score ?? null])).toEqual([
      [1, 'returned', 3],
      [2, 'submitted', null],
    ]);
  });

  it('/gradebook/me agrees: nothing unreleased counts', async () => {
    const id = await gradedSubmission();
    const before = (await svc.call('GET', '/courses/c1/gradebook/me', undefined, 'stu1')).body;
    expect(before.items[0]).toMatchObject({ itemId: 'a1', score: null });
    await svc.call('POST', `/submissions/${id}/release`, undefined, 'inst');
    const after = (await svc.call('GET', '/courses/c1/gradebook/me', undefined, 'stu1')).body;
    expect(after.items[0]).toMatchObject({ itemId: 'a1', score: 3 });
  });

  it('the other student and a reviewer still learn nothing (404 and 403)', async () => {
    const id = await gradedSubmission();
    const other = await svc.call('GET', `/submissions/${id}`, undefined, 'stu2');
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not-found');
    const reviewer = await svc.call('GET', `/submissions/${id}`, undefined, 'rev');
    expect(reviewer.status).toBe(403);
    expect(reviewer.body.error.code).toBe('forbidden');
  });
});

/**
 * The gradebook's items are the assignments students can see: published, in a published
 * module (store/gradebook.ts publishedItems). One in a draft module is neither shown to
 * students nor handed in by them, so it must not count against them as missing work.
 */
describe('an assignment in a draft module is not in the gradebook', () => {
  const dataset = {
    modules: [{ id: 'm2', courseId: 'c1', title: 'Later', status: 'draft' as const }],
    assignments: [
      { id: 'a1', moduleId: 'm1', title: 'Seen', status: 'published' as const, points: 10, categoryId: 'assignments', dueAt: '2026-11-01T00:00:00Z' },
      { id: 'a2', moduleId: 'm2', title: 'Hidden', status: 'published' as const, points: 10, categoryId: 'assignments', dueAt: '2026-11-01T00:00:00Z' },
    ],
    submissions: [
      {
        id: 's1',
        assignmentId: 'a1',
        studentId: 'stu1',
        attempt: 1,
        submittedAt: '2026-10-30T00:00:00Z',
        grade: { score: 8, gradedBy: 'inst', gradedAt: '2026-11-02T00:00:00Z', releasedAt: '2026-11-02T00:00:00Z' },
      },
    ],
  };

  it('past its due date it is no missing zero, for the student or the staff, until its module is published', async () => {
    svc = await makeService(dataset);
    const setup = (await svc.call('GET', '/courses/c1/gradebook/setup')).body;
    expect((await svc.call('PUT', '/courses/c1/gradebook/setup', { ...setup, missing: { treatAs: 'zero-after-due', droppable: false } })).status).toBe(200);
    const mine = (await svc.call('GET', '/courses/c1/gradebook/me', undefined, 'stu1')).body;
    expect(JSON.stringify(mine)).not.toContain('a2');
    expect(mine.percent).toBe(80);
    const header = async () => ((await svc.call('GET', '/courses/c1/gradebook/export')).body.csv as string).split('\r\n')[0];
    expect(await header()).not.toContain('(a2)');
    // Published, the module brings it in: after its due date with nothing handed in, a missing zero.
    expect((await svc.call('POST', '/modules/m2/publish')).status).toBe(200);
    expect(await header()).toContain('Hidden (a2)');
    expect((await svc.call('GET', '/courses/c1/gradebook/me', undefined, 'stu1')).body.percent).toBe(40);
  });

  it('a grades import names a column for it as not importable, and writes nothing', async () => {
    svc = await makeService(dataset);
    const res = await svc.call('POST', '/courses/c1/gradebook/import', {
      items: [{ itemId: 'a2', column: 3 }],
      rows: [{ studentId: 'stu1', row: 3, scores: [5] }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      {
        path: 'items[0].itemId',
        message: 'column C (a2): assignment "a2" is in a draft module; only assignments students can see are in the gradebook (publish the module first)',
      },
    ]);
  });
});

/**
 * Students never see an AI draft (domain/content/block-view.ts): an assistant's block waits
 * for a person's review, so a student sees the content it replaced, or nothing.
 */
describe("an AI draft is the authors' until reviewed", () => {
  const draftOf = (id: string, text: string, previous: { type: 'paragraph'; text: string } | null) => ({
    id,
    type: 'paragraph' as const,
    text,
    origin: 'ai' as const,
    aiState: 'draft' as const,
    previous,
    provenance: { model: 'm', task: 't', generatedAt: '2026-11-20T00:00:00Z', sources: [], summary: 's' },
  });
  const dataset = {
    lessons: [{ id: 'l1', moduleId: 'm1', title: 'L', minutes: 5, status: 'published' as const }],
    blocks: [
      { id: 'b0', lessonId: 'l1', type: 'paragraph' as const, text: 'Written by a person.' },
      { ...draftOf('b1', 'An AI rewrite.', { type: 'paragraph', text: 'The original.' }), lessonId: 'l1' },
      { ...draftOf('b2', 'A new AI paragraph.', null), lessonId: 'l1' },
    ],
    assignments: [
      {
        id: 'a1',
        moduleId: 'm1',
        title: 'Essay',
        status: 'published' as const,
        points: 10,
        instructions: [{ id: 'i0', type: 'paragraph' as const, text: 'Write.' }, draftOf('i1', 'AI hint.', null)],
      },
    ],
  };

  it("a student sees what a draft replaced, or nothing; staff see the drafts; accepted, it is everyone's", async () => {
    svc = await makeService(dataset);
    const texts = async (as: string) => ((await svc.call('GET', '/lessons/l1/blocks', undefined, as)).body as { text: string }[]).map((b) => b.text);
    expect(await texts('inst')).toEqual(['Written by a person.', 'An AI rewrite.', 'A new AI paragraph.']);
    expect(await texts('stu1')).toEqual(['Written by a person.', 'The original.']);
    const shown = (await svc.call('GET', '/blocks/b1', undefined, 'stu1')).body;
    expect(shown).toMatchObject({ id: 'b1', text: 'The original.', aiState: null, provenance: null, previous: null });
    expect((await svc.call('GET', '/blocks/b2', undefined, 'stu1')).status).toBe(404);
    expect((await svc.call('GET', '/blocks/b2', undefined, 'inst')).status).toBe(200);
    const instructions = async (as: string) =>
      ((await svc.call('GET', '/assignments/a1', undefined, as)).body.instructions as { id: string }[]).map((b) => b.id);
    expect(await instructions('stu1')).toEqual(['i0']);
    expect(await instructions('inst')).toEqual(['i0', 'i1']);
    const listed = (await svc.call('GET', '/courses/c1/assignments', undefined, 'stu1')).body as { instructions: { id: string }[] }[];
    expect(listed[0]!.instructions.map((b) => b.id)).toEqual(['i0']);
    expect((await svc.call('POST', '/blocks/b2/review', { decision: 'accept' }, 'inst')).status).toBe(200);
    expect(await texts('stu1')).toEqual(['Written by a person.', 'The original.', 'A new AI paragraph.']);
  });
});
