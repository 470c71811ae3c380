import { afterEach, describe, expect, it } from 'vitest';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const RUBRIC = [
  {
    id: 'acc',
    title: 'Accuracy',
    levels: [
      { id: 'full', title: 'Full', points: 6 },
      { id: 'half', title: 'Half', points: 3 },
    ],
  },
  {
    id: 'clar',
    title: 'Clarity',
    levels: [
      { id: 'full', title: 'Full', points: 4 },
      { id: 'none', title: 'None', points: 0 },
    ],
  },
];

async function assignment(over: Record<string, unknown> = {}) {
  const res = await svc.call(
    'POST',
    '/modules/m1/assignments',
    {
      title: 'Essay',
      points: 10,
      dueAt: '2026-12-01T17:00:00+01:00',
      rubric: RUBRIC,
      instructions: [
        { type: 'heading', level: 2, text: 'Task' },
        { type: 'paragraph', text: 'Write 500 words.' },
      ],
      ...over,
    },
    'inst',
  );
  expect(res.status).toBe(201);
  return res.body;
}

describe('lessons', () => {
  it('createLesson: a draft at the end of the module, courseId from the module', async () => {
    svc = await makeService();
    const a = await svc.call('POST', '/modules/m1/lessons', { title: 'One', minutes: 30 }, 'inst');
    const b = await svc.call('POST', '/modules/m1/lessons', { title: 'Two', minutes: 240 }, 'inst');
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ moduleId: 'm1', courseId: 'c1', title: 'One', minutes: 30, position: 0, status: 'draft', publishedAt: null });
    expect(b.body.position).toBe(1);
  });

  it.each([
    [{ title: 'X', minutes: 0 }, 'minutes', 'must be >= 1'],
    [{ title: 'X', minutes: 241 }, 'minutes', 'must be <= 240'],
    [{ title: 'X', minutes: 1.5 }, 'minutes', 'must be an integer'],
    [{ title: '', minutes: 10 }, 'title', 'must not be empty'],
    [{ title: 'X' }, 'minutes', 'is required'],
    [{ title: 'X', minutes: 10, colour: 'red' }, 'colour', 'unknown field'],
  ])('invalid lesson %j -> 400 naming %s', async (body, path, message) => {
    svc = await makeService();
    const res = await svc.call('POST', '/modules/m1/lessons', body, 'inst');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid');
    expect(res.body.error.details).toContainEqual({ path, message });
  });

  it('students see published lessons only; a draft by id is not-found; reviewers cannot create (403)', async () => {
    svc = await makeService();
    const draft = (await svc.call('POST', '/modules/m1/lessons', { title: 'Draft', minutes: 5 }, 'inst')).body;
    const pub = (await svc.call('POST', '/modules/m1/lessons', { title: 'Pub', minutes: 5 }, 'inst')).body;
    const published = await svc.call('POST', `/lessons/${pub.id}/publish`, undefined, 'inst');
    expect(published.body).toMatchObject({ status: 'published', publishedAt: '2026-11-22T08:30:00.000Z' });
    expect((await svc.call('GET', '/modules/m1/lessons', undefined, 'stu1')).body.map((l: { id: string }) => l.id)).toEqual([pub.id]);
    expect((await svc.call('GET', '/modules/m1/lessons', undefined, 'inst')).body).toHaveLength(2);
    const hidden = await svc.call('GET', `/lessons/${draft.id}`, undefined, 'stu1');
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('not-found');
    expect((await svc.call('POST', '/modules/m1/lessons', { title: 'X', minutes: 5 }, 'rev')).status).toBe(403);
    expect((await svc.call('POST', '/modules/m1/lessons', { title: 'X', minutes: 5 }, 'out')).status).toBe(404);
  });

  it('moving a lesson shifts its siblings; a position beyond the end is invalid', async () => {
    svc = await makeService();
    const ids = [];
    for (const t of ['A', 'B', 'C']) ids.push((await svc.call('POST', '/modules/m1/lessons', { title: t, minutes: 5 })).body.id);
    await svc.call('PATCH', `/lessons/${ids[2]}`, { position: 0 });
    expect((await svc.call('GET', '/modules/m1/lessons')).body.map((l: { title: string; position: number }) => `${l.position}${l.title}`)).toEqual([
      '0C',
      '1A',
      '2B',
    ]);
    expect((await svc.call('PATCH', `/lessons/${ids[0]}`, { position: 3 })).status).toBe(400);
    expect((await svc.call('PATCH', `/lessons/${ids[0]}`, { position: 9007199254740992 })).status).toBe(400);
  });
});

describe('blocks', () => {
  it.each([
    [{ type: 'heading', level: 0, text: 'x' }, 'level'],
    [{ type: 'heading', level: 7, text: 'x' }, 'level'],
    [{ type: 'heading', level: 2, text: 'x', colour: 'red' }, 'colour'],
    [{ type: 'video', url: 'ftp://x' }, 'url'],
    [{ type: 'callout', tone: 'loud', text: 'x' }, 'tone'],
    [{ type: 'marquee', text: 'x' }, 'type'],
    [{ type: 'paragraph', text: 'x'.repeat(20_001) }, 'text'],
  ])('invalid block %j -> 400 naming %s', async (body, path) => {
    svc = await makeService();
    const lesson = (await svc.call('POST', '/modules/m1/lessons', { title: 'L', minutes: 5 })).body;
    const res = await svc.call('POST', `/lessons/${lesson.id}/blocks`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('all 11 variants are stored with complete fields; add, move, delete keep positions contiguous', async () => {
    svc = await makeService();
    const lesson = (await svc.call('POST', '/modules/m1/lessons', { title: 'L', minutes: 5 })).body;
    const variants = [
      { type: 'heading', level: 1, text: 'Title' },
      { type: 'paragraph', text: 'Para' },
      { type: 'list', items: ['a', 'b'] },
      { type: 'image', url: 'pic.png', alt: 'A pic' },
      { type: 'video', url: 'https://v.example/1' },
      { type: 'link', url: 'https://x.example', text: 'X site' },
      { type: 'code', text: 'x = 1' },
      { type: 'quote', text: 'Q' },
      { type: 'callout', tone: 'info', text: 'Note' },
      { type: 'embed', url: 'https://e.example', title: 'E' },
      { type: 'divider' },
    ];
    for (const v of variants) expect((await svc.call('POST', `/lessons/${lesson.id}/blocks`, v, 'inst')).status).toBe(201);
    const list = (await svc.call('GET', `/lessons/${lesson.id}/blocks`)).body;
    expect(list.map((b: { type: string }) => b.type)).toEqual(variants.map((v) => v.type));
    expect(list.map((b: { position: number }) => b.position)).toEqual([...Array(11).keys()]);
    expect(list[2]).toMatchObject({
      type: 'list',
      ordered: false,
      items: ['a', 'b'],
      origin: 'human',
      aiState: null,
      provenance: null,
      previous: null,
      lessonId: lesson.id,
    });
    expect(list[3]).toMatchObject({ alt: 'A pic', decorative: false });
    expect(list[4]).toMatchObject({ captions: null, durationSeconds: null });
    await svc.call('POST', `/blocks/${list[10].id}/move`, { position: 0 });
    await svc.call('DELETE', `/blocks/${list[5].id}`);
    const after = (await svc.call('GET', `/lessons/${lesson.id}/blocks`)).body;
    expect(after.map((b: { type: string }) => b.type)).toEqual([
      'divider',
      'heading',
      'paragraph',
      'list',
      'image',
      'video',
      'code',
      'quote',
      'callout',
      'embed',
    ]);
    expect(after.map((b: { position: number }) => b.position)).toEqual([...Array(10).keys()]);
  });

  it('editing makes a block human and keeps the old content; AI drafts are accepted or rejected', async () => {
    svc = await makeService();
    const lesson = (await svc.call('POST', '/modules/m1/lessons', { title: 'L', minutes: 5 })).body;
    const provenance = { model: 'm', task: 'brief', generatedAt: '2026-11-20T10:00:00+02:00', sources: [{ id: 's', name: 'S' }], summary: 'made it' };
    const ai = (await svc.call('POST', `/lessons/${lesson.id}/blocks`, { type: 'paragraph', text: 'AI text', provenance })).body;
    expect(ai).toMatchObject({ origin: 'ai', aiState: 'draft', provenance: { ...provenance, generatedAt: '2026-11-20T08:00:00.000Z' } });
    // reject with no previous content: the block is removed
    expect((await svc.call('POST', `/blocks/${ai.id}/review`, { decision: 'reject' })).body).toMatchObject({ deleted: true });
    expect((await svc.call('GET', `/blocks/${ai.id}`)).status).toBe(404);

    const human = (await svc.call('POST', `/lessons/${lesson.id}/blocks`, { type: 'paragraph', text: 'Mine' })).body;
    const edited = await svc.call('PATCH', `/blocks/${human.id}`, { type: 'paragraph', text: 'Mine, improved' });
    expect(edited.body).toMatchObject({ origin: 'human', aiState: null, text: 'Mine, improved', previous: { type: 'paragraph', text: 'Mine' } });
    expect((await svc.call('POST', `/blocks/${human.id}/review`, { decision: 'accept' })).status).toBe(409);

    const draft = (await svc.call('POST', `/lessons/${lesson.id}/blocks`, { type: 'paragraph', text: 'AI 2', provenance })).body;
    expect((await svc.call('POST', `/blocks/${draft.id}/review`, { decision: 'accept' })).body).toMatchObject({ aiState: 'accepted', text: 'AI 2' });
  });

  it('rejecting an AI rewrite restores the previous content', async () => {
    svc = await makeService({
      lessons: [{ id: 'l1', moduleId: 'm1', title: 'L', minutes: 5 }],
      blocks: [
        { id: 'b1', lessonId: 'l1', type: 'paragraph', text: 'AI rewrite', origin: 'ai', aiState: 'draft', previous: { type: 'paragraph', text: 'Original' } },
      ],
    });
    const res = await svc.call('POST', '/blocks/b1/review', { decision: 'reject' }, 'inst');
    expect(res.body).toMatchObject({ text: 'Original', aiState: 'rejected', previous: null });
  });
});

describe('assignments', () => {
  it('creates a draft with instructions; timestamps normalise to UTC', async () => {
    svc = await makeService();
    const a = await assignment();
    expect(a).toMatchObject({
      status: 'draft',
      courseId: 'c1',
      dueAt: '2026-12-01T16:00:00.000Z',
      points: 10,
      submissionType: 'text',
      // No categoryId: the setup's first category (the default setup's "assignments").
      categoryId: 'assignments',
      position: 0,
    });
    expect(a.instructions.map((b: { type: string; lessonId: null; position: number }) => [b.type, b.lessonId, b.position])).toEqual([
      ['heading', null, 0],
      ['paragraph', null, 1],
    ]);
  });

  it('PATCH changes only the given fields; dueAt null clears; rubric replaces', async () => {
    svc = await makeService();
    const a = await assignment();
    const res = await svc.call('PATCH', `/assignments/${a.id}`, { dueAt: null, rubric: [RUBRIC[0]] }, 'inst');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Essay', points: 10, dueAt: null });
    expect(res.body.rubric.map((c: { id: string }) => c.id)).toEqual(['acc']);
    expect(res.body.instructions).toHaveLength(2);
  });

  it('instructions replace: identity kept by id, unchanged blocks keep AI state, changed ones become human edits, others removed', async () => {
    svc = await makeService({
      assignments: [
        {
          id: 'a1',
          moduleId: 'm1',
          title: 'A',
          points: 10,
          instructions: [
            { id: 'i1', type: 'paragraph', text: 'keep me', origin: 'ai', aiState: 'accepted' },
            { id: 'i2', type: 'paragraph', text: 'change me' },
            { id: 'i3', type: 'paragraph', text: 'drop me' },
          ],
        },
      ],
    });
    const res = await svc.call('PATCH', '/assignments/a1', {
      instructions: [
        { type: 'heading', level: 2, text: 'New' },
        { id: 'i2', type: 'paragraph', text: 'changed' },
        { id: 'i1', type: 'paragraph', text: 'keep me' },
      ],
    });
    expect(res.status).toBe(200);
    const [fresh, i2, i1] = res.body.instructions;
    expect(fresh).toMatchObject({ type: 'heading', position: 0, origin: 'human' });
    expect(fresh.id).not.toMatch(/^i\d$/);
    expect(i2).toMatchObject({ id: 'i2', position: 1, text: 'changed', origin: 'human', previous: { type: 'paragraph', text: 'change me' } });
    expect(i1).toMatchObject({ id: 'i1', position: 2, origin: 'ai', aiState: 'accepted' });
    expect((await svc.call('GET', '/blocks/i3')).status).toBe(404);
  });

  it('an unknown instruction block id is invalid and nothing changes', async () => {
    svc = await makeService();
    const a = await assignment();
    const res = await svc.call('PATCH', `/assignments/${a.id}`, { title: 'New', instructions: [{ id: 'blk_nope', type: 'paragraph', text: 'x' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'instructions[0].id', message: '"blk_nope" is not one of this assignment\'s blocks' }]);
    expect((await svc.call('GET', `/assignments/${a.id}`)).body.title).toBe('Essay');
  });

  it.each([
    [{ points: -1 }, 'points'],
    [{ position: 9007199254740992 }, 'position'],
    [{ position: -1 }, 'position'],
    [{ dueAt: 'next tuesday' }, 'dueAt'],
    [{ rubric: [{ id: 'x', title: 'X', levels: [{ id: 'l', title: 'L', points: -1 }] }] }, 'rubric[0].levels[0].points'],
    [
      {
        rubric: [
          { id: 'x', title: 'X', levels: [{ id: 'l', title: 'L', points: 1 }] },
          { id: 'x', title: 'Y', levels: [{ id: 'l', title: 'L', points: 1 }] },
        ],
      },
      'rubric[1].id',
    ],
    [{ categoryId: 'nope' }, 'categoryId'],
    [{ status: 'published' }, 'status'],
  ])('invalid PATCH %j -> 400 naming %s', async (body, path) => {
    svc = await makeService();
    const a = await assignment();
    const res = await svc.call('PATCH', `/assignments/${a.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('lists in course order (module position, assignment position, id); students see published ones; drafts are not-found to them', async () => {
    svc = await makeService({ modules: [{ id: 'm0', courseId: 'c1', title: 'Zero', position: 1 }] });
    const a = await assignment({ title: 'first in m1' });
    const b = (await svc.call('POST', '/modules/m0/assignments', { title: 'in m0', points: 5 })).body;
    const c = await assignment({ title: 'second in m1' });
    expect((await svc.call('GET', '/courses/c1/assignments')).body.map((x: { id: string }) => x.id)).toEqual([a.id, c.id, b.id]);
    await svc.call('POST', `/assignments/${c.id}/publish`);
    expect((await svc.call('GET', '/courses/c1/assignments', undefined, 'stu1')).body.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const hidden = await svc.call('GET', `/assignments/${a.id}`, undefined, 'stu1');
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('not-found');
  });

  it('unpublishing an assignment with submissions is conflict', async () => {
    svc = await makeService();
    const a = await assignment();
    await svc.call('POST', `/assignments/${a.id}/publish`);
    await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'mine' }, 'stu1');
    const res = await svc.call('POST', `/assignments/${a.id}/unpublish`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
  });
});

describe('submissions', () => {
  it('the field of the submission type, non-empty; attempts count up; drafts are not-found to students', async () => {
    svc = await makeService();
    const a = await assignment();
    expect((await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'x' }, 'stu1')).status).toBe(404);
    await svc.call('POST', `/assignments/${a.id}/publish`);
    const first = await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'draft one' }, 'stu1');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      attempt: 1,
      state: 'submitted',
      text: 'draft one',
      fileId: null,
      link: null,
      studentId: 'stu1',
      submittedAt: '2026-11-22T08:30:00.000Z',
      grade: null,
    });
    expect((await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'two' }, 'stu1')).body.attempt).toBe(2);
    expect((await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'x' }, 'stu2')).body.attempt).toBe(1);

    const wrong = await svc.call('POST', `/assignments/${a.id}/submissions`, { link: 'https://x.example' }, 'stu1');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['link', 'text']);
    expect((await svc.call('POST', `/assignments/${a.id}/submissions`, { text: '  ' }, 'stu1')).status).toBe(400);
    expect((await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'x', extra: 1 }, 'stu1')).status).toBe(400);
    expect((await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'x' }, 'inst')).status).toBe(403);
  });

  it('link submissions must be http(s)', async () => {
    svc = await makeService();
    const a = await assignment({ submissionType: 'link' });
    await svc.call('POST', `/assignments/${a.id}/publish`);
    expect((await svc.call('POST', `/assignments/${a.id}/submissions`, { link: 'javascript:alert(1)' }, 'stu1')).body.error.details).toEqual([
      { path: 'link', message: 'must be an http or https URL' },
    ]);
    expect((await svc.call('POST', `/assignments/${a.id}/submissions`, { link: 'https://doc.example/x' }, 'stu1')).status).toBe(201);
  });

  it('students list their own; instructors all; reviewers may not read submissions', async () => {
    svc = await makeService();
    const a = await assignment();
    await svc.call('POST', `/assignments/${a.id}/publish`);
    const mine = (await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'a' }, 'stu1')).body;
    await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'b' }, 'stu2');
    expect((await svc.call('GET', `/assignments/${a.id}/submissions`, undefined, 'stu1')).body.map((s: { studentId: string }) => s.studentId)).toEqual([
      'stu1',
    ]);
    expect((await svc.call('GET', `/assignments/${a.id}/submissions`, undefined, 'inst')).body).toHaveLength(2);
    expect((await svc.call('GET', `/assignments/${a.id}/submissions`, undefined, 'rev')).status).toBe(403);
    expect((await svc.call('GET', `/submissions/${mine.id}`, undefined, 'stu2')).status).toBe(404);
    expect((await svc.call('GET', `/submissions/${mine.id}`, undefined, 'stu1')).status).toBe(200);
  });

  it('grading with a rubric: criteria name its criteria and levels, the score defaults to their sum; release returns it', async () => {
    svc = await makeService();
    const a = await assignment();
    await svc.call('POST', `/assignments/${a.id}/publish`);
    const sub = (await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'a' }, 'stu1')).body;
    const graded = await svc.call(
      'PUT',
      `/submissions/${sub.id}/grade`,
      {
        criteria: [
          { criterionId: 'acc', levelId: 'half', comment: 'ok' },
          { criterionId: 'clar', levelId: 'full' },
        ],
        feedback: 'Good',
      },
      'inst',
    );
    expect(graded.status).toBe(200);
    expect(graded.body).toMatchObject({
      state: 'graded',
      grade: {
        score: 7,
        feedback: 'Good',
        gradedBy: 'inst',
        releasedAt: null,
        criteria: [
          { criterionId: 'acc', levelId: 'half', points: 3, comment: 'ok' },
          { criterionId: 'clar', levelId: 'full', points: 4, comment: '' },
        ],
      },
    });
    const explicit = await svc.call('PUT', `/submissions/${sub.id}/grade`, { score: 8.5, criteria: [{ criterionId: 'acc', levelId: 'full' }] }, 'inst');
    expect(explicit.body.grade.score).toBe(8.5);
    const released = await svc.call('POST', `/submissions/${sub.id}/release`, undefined, 'inst');
    expect(released.body).toMatchObject({ state: 'returned', grade: { releasedAt: '2026-11-22T08:30:00.000Z' } });
  });

  it.each([
    [{ criteria: [{ criterionId: 'nope', levelId: 'full' }] }, 'criteria[0].criterionId'],
    [{ criteria: [{ criterionId: 'acc', levelId: 'nope' }] }, 'criteria[0].levelId'],
    [
      {
        criteria: [
          { criterionId: 'acc', levelId: 'full' },
          { criterionId: 'acc', levelId: 'half' },
        ],
      },
      'criteria[1].criterionId',
    ],
    [{ score: -1 }, 'score'],
    [{ feedback: 'only words' }, 'score'],
  ])('invalid grade %j -> 400 naming %s', async (body, path) => {
    svc = await makeService();
    const a = await assignment();
    await svc.call('POST', `/assignments/${a.id}/publish`);
    const sub = (await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'a' }, 'stu1')).body;
    const res = await svc.call('PUT', `/submissions/${sub.id}/grade`, body, 'inst');
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('students cannot grade (403); releasing an ungraded submission is conflict', async () => {
    svc = await makeService();
    const a = await assignment();
    await svc.call('POST', `/assignments/${a.id}/publish`);
    const sub = (await svc.call('POST', `/assignments/${a.id}/submissions`, { text: 'a' }, 'stu1')).body;
    expect((await svc.call('PUT', `/submissions/${sub.id}/grade`, { score: 10 }, 'stu1')).status).toBe(403);
    expect((await svc.call('POST', `/submissions/${sub.id}/release`, undefined, 'inst')).status).toBe(409);
  });
});
