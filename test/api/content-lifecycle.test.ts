/**
 * The content lifecycle (#14): students see neither a draft module nor anything in it;
 * modules are published and unpublished, courses and lessons unpublished; modules,
 * lessons and assignments deleted, except what would lose student work (conflict naming it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

/** m1 (published): l1 (published, block b1), l2, assignment a1 (published, one submission), a2 (published). m2 (draft): l3 (published, b3), a3 (published). */
const lifecycle = () =>
  makeService({
    modules: [{ id: 'm2', courseId: 'c1', title: 'Module Two' }],
    lessons: [
      { id: 'l1', moduleId: 'm1', title: 'One', minutes: 5, status: 'published' },
      { id: 'l2', moduleId: 'm1', title: 'Two', minutes: 5 },
      { id: 'l3', moduleId: 'm2', title: 'Three', minutes: 5, status: 'published' },
    ],
    blocks: [
      { id: 'b1', lessonId: 'l1', type: 'paragraph', text: 'Visible.' },
      { id: 'b3', lessonId: 'l3', type: 'paragraph', text: 'Hidden with its module.' },
    ],
    assignments: [
      { id: 'a1', moduleId: 'm1', title: 'Essay', points: 10, status: 'published' },
      { id: 'a2', moduleId: 'm1', title: 'Quiz', points: 5, status: 'published' },
      { id: 'a3', moduleId: 'm2', title: 'Project', points: 20, status: 'published', instructions: [{ id: 'i3', type: 'paragraph', text: 'Build.' }] },
    ],
    submissions: [{ id: 's1', assignmentId: 'a1', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-20T00:00:00Z', text: 'Mine.' }],
  });

const ids = (res: { body: { id: string }[] }) => res.body.map((x) => x.id);

function expectError(res: { status: number; body: { error: { code: string; message: string } } }, status: number, code: string, message?: string) {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (message !== undefined) expect(res.body.error.message).toBe(message);
}

describe('students and draft modules', () => {
  it('see neither a draft module nor anything in it, by list or by id; staff see it all', async () => {
    svc = await lifecycle();
    expect(ids(await svc.call('GET', '/courses/c1/modules', undefined, 'stu1'))).toEqual(['m1']);
    expect(ids(await svc.call('GET', '/courses/c1/modules', undefined, 'rev'))).toEqual(['m1', 'm2']);
    expect(ids(await svc.call('GET', '/courses/c1/assignments', undefined, 'stu1'))).toEqual(['a1', 'a2']);
    expect(ids(await svc.call('GET', '/courses/c1/assignments', undefined, 'inst'))).toEqual(['a1', 'a2', 'a3']);
    for (const [path, kind, id] of [
      ['/modules/m2', 'Module', 'm2'],
      ['/modules/m2/lessons', 'Module', 'm2'],
      ['/lessons/l3', 'Lesson', 'l3'],
      ['/lessons/l3/blocks', 'Lesson', 'l3'],
      ['/blocks/b3', 'Block', 'b3'],
      ['/assignments/a3', 'Assignment', 'a3'],
      ['/blocks/i3', 'Block', 'i3'],
    ] as const) {
      expectError(await svc.call('GET', path, undefined, 'stu1'), 404, 'not-found', `${kind} "${id}" was not found.`);
      expect((await svc.call('GET', path, undefined, 'rev')).status, path).toBe(200);
    }
    expectError(await svc.call('POST', '/assignments/a3/submissions', { text: 'x' }, 'stu1'), 404, 'not-found');
  });

  it('once the module is published they see its published items (draft lessons stay hidden)', async () => {
    svc = await lifecycle();
    const res = await svc.call('POST', '/modules/m2/publish', undefined, 'inst');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'm2', courseId: 'c1', title: 'Module Two', objective: '', position: 1, status: 'published' });
    expect(ids(await svc.call('GET', '/modules/m2/lessons', undefined, 'stu1'))).toEqual(['l3']);
    expect((await svc.call('GET', '/blocks/b3', undefined, 'stu1')).body.text).toBe('Hidden with its module.');
    expect((await svc.call('POST', '/assignments/a3/submissions', { text: 'Built.' }, 'stu1')).status).toBe(201);
    expectError(await svc.call('GET', '/lessons/l2', undefined, 'stu1'), 404, 'not-found');
  });
});

describe('POST /modules/{moduleId}/publish|unpublish', () => {
  it('publishing twice changes nothing; unpublishing hides the module again', async () => {
    svc = await lifecycle();
    await svc.call('POST', '/modules/m2/publish', undefined, 'inst');
    expect((await svc.call('POST', '/modules/m2/publish', undefined, 'inst')).body.status).toBe('published');
    const back = await svc.call('POST', '/modules/m2/unpublish', undefined, 'inst');
    expect(back.body.status).toBe('draft');
    expect((await svc.call('POST', '/modules/m2/unpublish', undefined, 'inst')).body.status).toBe('draft');
    expectError(await svc.call('GET', '/lessons/l3', undefined, 'stu1'), 404, 'not-found');
  });

  it('unpublishing a module whose assignment has submissions is conflict naming it; nothing changes', async () => {
    svc = await lifecycle();
    const res = await svc.call('POST', '/modules/m1/unpublish', undefined, 'inst');
    expectError(res, 409, 'conflict', 'Student work would be lost: a1 ("Essay", 1 submission) would be hidden in a draft module. Nothing was changed.');
    expect(res.body.error.details).toEqual({ submissions: 1, assignments: [{ id: 'a1', title: 'Essay', submissions: 1, reason: 'module back to draft' }] });
    expect((await svc.call('GET', '/modules/m1')).body.status).toBe('published');
  });

  it('students and reviewers may not; an unknown module is not-found', async () => {
    svc = await lifecycle();
    expectError(await svc.call('POST', '/modules/m1/publish', undefined, 'stu1'), 403, 'forbidden');
    expectError(await svc.call('POST', '/modules/m2/publish', undefined, 'rev'), 403, 'forbidden');
    expectError(await svc.call('POST', '/modules/nope/unpublish', undefined, 'inst'), 404, 'not-found', 'Module "nope" was not found.');
  });
});

describe('POST /courses/{courseId}/unpublish and /lessons/{lessonId}/unpublish', () => {
  it('a course goes back to draft (publishedAt cleared); a draft course stays as it is', async () => {
    svc = await makeService({ courses: [{ id: 'c1', title: 'Course One', status: 'published', publishedAt: '2026-11-01T00:00:00Z' }] });
    const res = await svc.call('POST', '/courses/c1/unpublish', undefined, 'inst');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'c1', status: 'draft', publishedAt: null, updatedAt: '2026-11-22T08:30:00.000Z' });
    expect((await svc.call('POST', '/courses/c1/unpublish', undefined, 'inst')).body.status).toBe('draft');
    expectError(await svc.call('POST', '/courses/c1/unpublish', undefined, 'rev'), 403, 'forbidden');
    expectError(await svc.call('POST', '/courses/nope/unpublish'), 404, 'not-found');
  });

  it('a lesson goes back to draft: publishedAt cleared, students lose it and its blocks', async () => {
    svc = await lifecycle();
    expect((await svc.call('GET', '/blocks/b1', undefined, 'stu1')).status).toBe(200);
    const res = await svc.call('POST', '/lessons/l1/unpublish', undefined, 'inst');
    expect(res.body).toMatchObject({ id: 'l1', status: 'draft', publishedAt: null });
    expectError(await svc.call('GET', '/blocks/b1', undefined, 'stu1'), 404, 'not-found');
    expectError(await svc.call('POST', '/lessons/l2/unpublish', undefined, 'stu1'), 404, 'not-found');
    expectError(await svc.call('POST', '/lessons/l1/unpublish', undefined, 'rev'), 403, 'forbidden');
  });
});

describe('DELETE /lessons/{lessonId}', () => {
  it('deletes the lesson and its blocks; the lessons after it close the gap', async () => {
    svc = await lifecycle();
    const res = await svc.call('DELETE', '/lessons/l1', undefined, 'inst');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, id: 'l1' });
    expect((await svc.call('GET', '/modules/m1/lessons')).body.map((l: { id: string; position: number }) => [l.id, l.position])).toEqual([['l2', 0]]);
    expectError(await svc.call('GET', '/blocks/b1'), 404, 'not-found');
    expectError(await svc.call('DELETE', '/lessons/l1'), 404, 'not-found', 'Lesson "l1" was not found.');
    expectError(await svc.call('DELETE', '/lessons/l2', undefined, 'rev'), 403, 'forbidden');
  });
});

describe('DELETE /assignments/{assignmentId}', () => {
  it('deletes an assignment without submissions and its instructions; the gap closes', async () => {
    svc = await lifecycle();
    await svc.call('POST', '/modules/m1/assignments', { title: 'Third', points: 1 }, 'inst');
    expect((await svc.call('DELETE', '/assignments/a2', undefined, 'inst')).body).toEqual({ ok: true, id: 'a2' });
    expect((await svc.call('GET', '/courses/c1/assignments')).body.map((a: { id: string; position: number }) => [a.id, a.position])).toEqual([
      ['a1', 0],
      ['asg_0001', 1],
      ['a3', 0],
    ]);
    expect((await svc.call('DELETE', '/assignments/a3')).status).toBe(200);
    expectError(await svc.call('GET', '/blocks/i3'), 404, 'not-found');
  });

  it('an assignment with submissions is conflict naming it; the submission stays', async () => {
    svc = await lifecycle();
    const res = await svc.call('DELETE', '/assignments/a1', undefined, 'inst');
    expectError(res, 409, 'conflict', 'Student work would be lost: a1 ("Essay", 1 submission) would be deleted. Nothing was changed.');
    expect(res.body.error.details.assignments).toEqual([{ id: 'a1', title: 'Essay', submissions: 1, reason: 'deleted' }]);
    expect((await svc.call('GET', '/submissions/s1')).status).toBe(200);
    expectError(await svc.call('DELETE', '/assignments/a2', undefined, 'stu1'), 403, 'forbidden');
  });
});

describe('DELETE /modules/{moduleId}', () => {
  it('deletes a module with its lessons, blocks and assignments; the modules after it close the gap', async () => {
    svc = await lifecycle();
    await svc.call('POST', '/courses/c1/modules', { title: 'Three' }, 'inst');
    const res = await svc.call('DELETE', '/modules/m2', undefined, 'inst');
    expect(res.body).toEqual({ ok: true, id: 'm2' });
    expect((await svc.call('GET', '/courses/c1/modules')).body.map((m: { id: string; position: number }) => [m.id, m.position])).toEqual([
      ['m1', 0],
      ['mod_0001', 1],
    ]);
    for (const path of ['/lessons/l3', '/blocks/b3', '/assignments/a3', '/blocks/i3']) expectError(await svc.call('GET', path), 404, 'not-found');
  });

  it('a module holding an assignment with submissions is conflict naming the assignment; nothing is deleted', async () => {
    svc = await lifecycle();
    const res = await svc.call('DELETE', '/modules/m1', undefined, 'inst');
    expectError(res, 409, 'conflict', 'Student work would be lost: a1 ("Essay", 1 submission) would be deleted. Nothing was changed.');
    expect((await svc.call('GET', '/modules/m1/lessons')).body).toHaveLength(2);
    expectError(await svc.call('DELETE', '/modules/m2', undefined, 'rev'), 403, 'forbidden');
    expectError(await svc.call('DELETE', '/modules/nope'), 404, 'not-found');
  });
});

describe('the OpenAPI document', () => {
  it('lists every lifecycle and round-trip operation', async () => {
    svc = await makeService();
    const doc = (await svc.call('GET', '/openapi.json', undefined, null)).body;
    const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    for (const line of [
      'GET /api/v1/courses/{courseId}/content getCourseContent',
      'PUT /api/v1/courses/{courseId}/content putCourseContent',
      'GET /api/v1/courses/{courseId}/sync-mark getSyncMark',
      'PUT /api/v1/courses/{courseId}/sync-mark putSyncMark',
      'POST /api/v1/courses/{courseId}/unpublish unpublishCourse',
      'POST /api/v1/modules/{moduleId}/publish publishModule',
      'POST /api/v1/modules/{moduleId}/unpublish unpublishModule',
      'DELETE /api/v1/modules/{moduleId} deleteModule',
      'POST /api/v1/lessons/{lessonId}/unpublish unpublishLesson',
      'DELETE /api/v1/lessons/{lessonId} deleteLesson',
      'DELETE /api/v1/assignments/{assignmentId} deleteAssignment',
    ])
      expect(ops).toContain(line);
  });
});

describe('POST /blocks/{blockId}/move with lessonId', () => {
  it('moves a lesson block into another lesson of the course at a position; both lessons stay contiguous', async () => {
    svc = await lifecycle();
    await svc.call('POST', '/lessons/l3/blocks', { type: 'divider' }, 'inst');
    const res = await svc.call('POST', '/blocks/b1/move', { position: 1, lessonId: 'l3' }, 'inst');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'b1', lessonId: 'l3', position: 1, text: 'Visible.' });
    const list = async (lesson: string) =>
      (await svc.call('GET', `/lessons/${lesson}/blocks`)).body.map((b: { id: string; position: number }) => [b.id, b.position]);
    expect(await list('l1')).toEqual([]);
    expect(await list('l3')).toEqual([
      ['b3', 0],
      ['b1', 1],
      ['blk_0001', 2],
    ]);
    // The same lesson is an ordinary move.
    expect((await svc.call('POST', '/blocks/b1/move', { position: 0, lessonId: 'l3' }, 'inst')).body.position).toBe(0);
  });

  it("another course's lesson, an instruction block or a position past the end is invalid naming the field", async () => {
    svc = await makeService({
      courses: [
        { id: 'c1', title: 'Course One' },
        { id: 'c2', title: 'Course Two' },
      ],
      modules: [{ id: 'x1', courseId: 'c2', title: 'X' }],
      lessons: [
        { id: 'l1', moduleId: 'm1', title: 'One', minutes: 5 },
        { id: 'l2', moduleId: 'm1', title: 'Two', minutes: 5 },
        { id: 'lx', moduleId: 'x1', title: 'Theirs', minutes: 5 },
      ],
      blocks: [{ id: 'b1', lessonId: 'l1', type: 'divider' }],
      assignments: [{ id: 'a1', moduleId: 'm1', title: 'A', points: 1, instructions: [{ id: 'i1', type: 'divider' }] }],
    });
    const other = await svc.call('POST', '/blocks/b1/move', { position: 0, lessonId: 'lx' }, 'inst');
    expect(other.status).toBe(400);
    expect(other.body.error.details).toEqual([{ path: 'lessonId', message: '"lx" is not a lesson of this block\'s course' }]);
    const instruction = await svc.call('POST', '/blocks/i1/move', { position: 0, lessonId: 'l2' }, 'inst');
    expect(instruction.body.error.details).toEqual([{ path: 'lessonId', message: "an assignment's instruction block cannot move to a lesson" }]);
    const far = await svc.call('POST', '/blocks/b1/move', { position: 2, lessonId: 'l2' }, 'inst');
    expect(far.status).toBe(400);
    expect(far.body.error.details).toEqual([{ path: 'position', message: 'must be between 0 and 0' }]);
    expect((await svc.call('GET', '/blocks/b1')).body).toMatchObject({ lessonId: 'l1', position: 0 });
  });
});
