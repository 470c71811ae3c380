/** #17: a student in local mode (--as) sees a grade only once released, like over HTTP. */
import { describe, expect, it } from 'vitest';
import { cliStore } from '../helpers/cli-store.js';

describe('the CLI as a student (local mode, the same routes)', () => {
  it('submissions show and list hide an unreleased grade from --as the student, not from the instructor', async () => {
    const store = await cliStore({
      coursebook: 1,
      users: [
        { id: 'boss', name: 'Admin', admin: true },
        { id: 'teach', name: 'Teacher' },
        { id: 'kid', name: 'Student' },
      ],
      courses: [{ id: 'c1', title: 'C' }],
      enrollments: [
        { courseId: 'c1', userId: 'teach', role: 'instructor' },
        { courseId: 'c1', userId: 'kid', role: 'student' },
      ],
      modules: [{ id: 'm1', courseId: 'c1', title: 'M', status: 'published' }],
      assignments: [{ id: 'a1', moduleId: 'm1', title: 'A', points: 10, status: 'published' }],
      submissions: [
        { id: 's1', assignmentId: 'a1', studentId: 'kid', attempt: 1, submittedAt: '2026-11-20T00:00:00Z', grade: { score: 7, feedback: 'secret' } },
      ],
    });
    try {
      const mine = JSON.parse(await store.ok(['--as', 'kid', '--json', 'submissions', 'show', 's1']));
      expect(mine).toMatchObject({ id: 's1', state: 'submitted', grade: null });
      expect(await store.ok(['--as', 'kid', '--json', 'submissions', 'list', '--assignment', 'a1'])).not.toContain('secret');
      const staff = JSON.parse(await store.ok(['--as', 'teach', '--json', 'submissions', 'show', 's1']));
      expect(staff).toMatchObject({ state: 'graded', grade: { score: 7, feedback: 'secret' } });
      expect((await store.run(['--as', 'teach', 'submissions', 'release', 's1'])).code).toBe(0);
      expect(JSON.parse(await store.ok(['--as', 'kid', '--json', 'submissions', 'show', 's1'])).grade).toMatchObject({ score: 7, feedback: 'secret' });
    } finally {
      store.cleanup();
    }
  });
});
