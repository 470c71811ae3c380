/**
 * The grades view is paged by the API (at most 1000 students a page); the CLI follows the
 * pages, so `gradebook grades` shows every student and --json prints one whole document.
 */
import { describe, expect, it } from 'vitest';
import { rows, storesForThisFile } from '../helpers/cli-store.js';

const newStore = storesForThisFile();

/** A course of `n` students with one graded item each. */
function course(n: number) {
  const ids = Array.from({ length: n }, (_, i) => `s${String(i).padStart(4, '0')}`);
  return {
    coursebook: 1,
    users: [{ id: 'admin', name: 'Admin', admin: true }, ...ids.map((id) => ({ id, name: `Student ${id}` }))],
    courses: [{ id: 'big', title: 'Big' }],
    enrollments: ids.map((userId) => ({ courseId: 'big', userId, role: 'student' })),
    modules: [{ id: 'm', courseId: 'big', title: 'M', status: 'published' }],
    assignments: [{ id: 'a', moduleId: 'm', title: 'A', points: 10, status: 'published', categoryId: 'assignments' }],
    submissions: ids.map((studentId, i) => ({
      id: `sub-${studentId}`,
      assignmentId: 'a',
      studentId,
      attempt: 1,
      submittedAt: '2026-11-01T00:00:00Z',
      grade: { score: i % 11 },
    })),
  };
}

describe('gradebook grades', () => {
  it('follows the pages: 1,500 students in two pages of the API are all shown, and --json is one document', async () => {
    const s = await newStore(course(1500));
    const table = rows(await s.ok(['gradebook', 'grades', '--course', 'big']));
    expect(table).toHaveLength(1500);
    const doc = JSON.parse(await s.ok(['--json', 'gradebook', 'grades', '--course', 'big']));
    expect(doc.courseId).toBe('big');
    expect(doc.students).toHaveLength(1500);
    expect(doc.students[1499].studentId).toBe('s1499');
  });

  it('a course that does not exist is not-found (exit 5)', async () => {
    const s = await newStore(course(1));
    const res = await s.run(['gradebook', 'grades', '--course', 'nope']);
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/^error \(not-found\)/);
  });
});
