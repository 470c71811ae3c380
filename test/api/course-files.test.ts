import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const FILE = {
  coursebookCourse: 1,
  course: { title: 'Offline Course', description: 'Written offline.', objectives: ['Learn it'] },
  modules: [
    {
      title: 'First',
      objective: 'Start.',
      lessons: [
        {
          title: 'Hello',
          minutes: 10,
          blocks: [
            { type: 'heading', level: 1, text: 'Hello' },
            { type: 'paragraph', text: 'Welcome.' },
          ],
        },
      ],
      assignments: [
        {
          title: 'Intro quiz',
          points: 5,
          rubric: [{ id: 'c', title: 'C', levels: [{ id: 'l', title: 'L', points: 5 }] }],
          instructions: [{ type: 'paragraph', text: 'Answer.' }],
        },
      ],
    },
    { title: 'Second', lessons: [{ title: 'More', minutes: 20 }] },
  ],
};

describe('course files', () => {
  it('import creates the whole course; export of it re-imports to the same file', async () => {
    svc = await makeService();
    const created = await svc.call('POST', '/courses/import', FILE);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ modules: 2, lessons: 2, blocks: 2, assignments: 1 });
    const exported = await svc.call('GET', `/courses/${created.body.courseId}/export`, undefined, 'admin');
    expect(exported.status).toBe(200);
    expect(exported.body.modules[0].lessons[0].blocks.map((b: { type: string }) => b.type)).toEqual(['heading', 'paragraph']);
    expect(exported.body.modules[0].assignments[0].instructions[0]).toMatchObject({ type: 'paragraph', text: 'Answer.' });

    const other = await makeService();
    const again = await other.call('POST', '/courses/import', exported.body);
    expect(again.status).toBe(201);
    expect(again.body.courseId).toBe(created.body.courseId);
    const reexported = await other.call('GET', `/courses/${created.body.courseId}/export`);
    const strip = (x: { gradebookSetup: Record<string, unknown> }) => ({ ...x, gradebookSetup: { ...x.gradebookSetup, updatedAt: null, updatedBy: null } });
    expect(strip(reexported.body)).toEqual(strip(exported.body));
    other.close();
  });

  it('lists every problem with its nested path and writes nothing', async () => {
    svc = await makeService();
    const bad = structuredClone(FILE) as any;
    bad.modules[1].lessons[0].minutes = 241;
    bad.modules[0].assignments[0].points = -2;
    bad.modules[0].lessons[0].blocks[0].level = 9;
    const res = await svc.call('POST', '/courses/import', bad);
    expect(res.status).toBe(400);
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(['modules[1].lessons[0].minutes', 'modules[0].assignments[0].points', 'modules[0].lessons[0].blocks[0].level']),
    );
    expect((await svc.call('GET', '/courses')).body).toHaveLength(1);
  });

  it('an id that already exists is conflict; only admins import; instructors export', async () => {
    svc = await makeService();
    expect((await svc.call('POST', '/courses/import', { ...FILE, course: { ...FILE.course, id: 'c1' } })).status).toBe(409);
    expect((await svc.call('POST', '/courses/import', FILE, 'inst')).status).toBe(403);
    expect((await svc.call('GET', '/courses/c1/export', undefined, 'inst')).status).toBe(200);
    expect((await svc.call('GET', '/courses/c1/export', undefined, 'stu1')).status).toBe(403);
  });
});

/**
 * A course file's problems are told at its own paths, never at those of the dataset it is
 * imported as, and a conflict says what a course file can do about it (fourteenth session:
 * it said "import with --replace", which a course file has not, and `blocks[13]`).
 */
describe('course-file paths and conflicts', () => {
  const EXAMPLE = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../docs/examples/course.json'), 'utf8'));
  const withIds = {
    coursebookCourse: 1,
    course: { id: 'crs_f', title: 'With ids' },
    modules: [
      {
        id: 'mod_f',
        title: 'First',
        lessons: [{ id: 'les_f', title: 'Hello', minutes: 10, blocks: [{ id: 'blk_f1', type: 'paragraph', text: 'Hi.' }] }],
        assignments: [{ id: 'asg_f', title: 'Quiz', points: 5, instructions: [{ id: 'blk_fi', type: 'paragraph', text: 'Answer.' }] }],
      },
    ],
  };

  it('imported twice: 409 at the file paths, saying how a file updates its course; PUT .../content with the same file then succeeds', async () => {
    svc = await makeService();
    expect((await svc.call('POST', '/courses/import', withIds)).status).toBe(201);
    const res = await svc.call('POST', '/courses/import', withIds);
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'conflict',
      message:
        "6 records of this course file are already in the store, course crs_f among them; nothing was imported. Importing a course file only creates a course; to update crs_f from the file, PUT it to /api/v1/courses/crs_f/content (coursebook api PUT /courses/crs_f/content --file FILE; coursebook courses push crs_f --to PROFILE sends a store's copy to another store); to import another copy, leave the file's ids out (and import with --as-new, asNew=true).",
      details: [
        { path: 'course', message: 'crs_f already exists in the store' },
        { path: 'modules[0]', message: 'mod_f already exists in the store' },
        { path: 'modules[0].lessons[0]', message: 'les_f already exists in the store' },
        { path: 'modules[0].lessons[0].blocks[0]', message: 'blk_f1 already exists in the store (a block of lesson les_f)' },
        { path: 'modules[0].assignments[0].instructions[0]', message: 'blk_fi already exists in the store (an instruction of assignment asg_f)' },
        { path: 'modules[0].assignments[0]', message: 'asg_f already exists in the store' },
      ],
    });
    const edited = structuredClone(withIds);
    edited.modules[0]!.lessons[0]!.title = 'Hello again';
    const put = await svc.call('PUT', '/courses/crs_f/content', edited);
    expect(put.status).toBe(200);
    expect(put.body.created).toBe(false);
    expect((await svc.call('GET', '/lessons/les_f')).body.title).toBe('Hello again');
  });

  it('the example file imported twice names its later modules and lessons by their own indexes', async () => {
    svc = await makeService();
    await svc.call('POST', '/courses/import', EXAMPLE);
    const res = await svc.call('POST', '/courses/import', EXAMPLE);
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        { path: 'modules[1]', message: 'mod_conclude already exists in the store' },
        { path: 'modules[1].lessons[0]', message: 'les_claims already exists in the store' },
        { path: 'modules[1].lessons[0].blocks[0]', message: 'blk_c1 already exists in the store (a block of lesson les_claims)' },
      ]),
    );
    expect(res.body.error.details.map((d: { path: string }) => d.path).filter((p: string) => !p.startsWith('modules') && p !== 'course')).toEqual([]);
  });

  it("an instruction whose id another course's lesson block has: 409 at its path, naming the lesson; nothing imported", async () => {
    svc = await makeService();
    await svc.call('POST', '/courses/import', withIds);
    const other = structuredClone(FILE) as any;
    other.modules[0].assignments[0].instructions[0].id = 'blk_f1';
    const res = await svc.call('POST', '/courses/import', other);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      message:
        '1 record of this course file is already in the store (ids are unique across the store, whatever their course); nothing was imported. Give those records other ids, or leave their ids out to have new ones made.',
      details: [{ path: 'modules[0].assignments[0].instructions[0]', message: 'blk_f1 already exists in the store (a block of lesson les_f)' }],
    });
    expect((await svc.call('GET', '/courses')).body.map((c: { id: string }) => c.id)).toEqual(['c1', 'crs_f']);
  });

  it('a lesson block and an instruction of the file with one id: 400 at the instruction, pointing to the block, both as written', async () => {
    svc = await makeService();
    const file = structuredClone(FILE) as any;
    file.modules[1].lessons[0].blocks = [{ id: 'blk_same', type: 'paragraph', text: 'Lesson.' }];
    file.modules[0].assignments[0].instructions[0].id = 'blk_same';
    const res = await svc.call('POST', '/courses/import', file);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid',
      message: 'The course file has 1 problem; nothing was imported.',
      details: [{ path: 'modules[0].assignments[0].instructions[0]', message: 'duplicate of modules[1].lessons[0].blocks[0] (blk_same)' }],
    });
  });
});
