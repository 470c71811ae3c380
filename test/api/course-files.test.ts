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
