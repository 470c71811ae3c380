/**
 * Category removal with the move of its assignments, and assignments into a category in
 * bulk (issue #13): each is one transaction, checked whole before anything is written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultGradebookSetup } from '../../src/domain/grading/index.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const cat = (id: string, position: number, weight: number) => ({
  id,
  courseId: 'c1',
  name: id.toUpperCase(),
  position,
  weight,
  drop: { lowest: 0, highest: 0, keepAtLeast: 1 },
  lateApplies: true,
});

const course = () =>
  makeService({
    courses: [
      { id: 'c1', title: 'Course One' },
      { id: 'c2', title: 'Course Two' },
    ],
    modules: [
      { id: 'm2', courseId: 'c1', title: 'Module Two' },
      { id: 'mx', courseId: 'c2', title: 'Elsewhere' },
    ],
    assignments: [
      { id: 'a1', moduleId: 'm1', title: 'Quiz 1', points: 10, categoryId: 'quiz', status: 'published' },
      { id: 'a2', moduleId: 'm1', title: 'Quiz 2', points: 10, categoryId: 'quiz' },
      { id: 'a3', moduleId: 'm2', title: 'Lab 1', points: 20, categoryId: 'lab' },
      { id: 'a4', moduleId: 'm2', title: 'Lab 2', points: 20, categoryId: null },
      { id: 'ax', moduleId: 'mx', title: 'Other course', points: 5 },
    ],
    gradebookSetups: [
      {
        ...defaultGradebookSetup('c1', '2026-11-01T00:00:00.000Z', 'inst'),
        mode: 'weighted',
        categories: [cat('quiz', 0, 40), cat('lab', 1, 60), cat('spare', 2, 0)],
        studentNotes: [{ categoryId: 'quiz', text: 'Quizzes are open book.' }],
      },
    ],
  });

const categoryOf = async (id: string) => (await svc.call('GET', `/assignments/${id}`)).body.categoryId;

describe('DELETE /courses/{courseId}/gradebook/categories/{categoryId}', () => {
  it('removes an empty category at the expected version: version + 1, its place left to the others', async () => {
    svc = await course();
    const res = await svc.call('DELETE', '/courses/c1/gradebook/categories/spare?expectedVersion=1', undefined, 'inst');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 2, updatedBy: 'inst', updatedAt: '2026-11-22T08:30:00.000Z' });
    expect(res.body.categories.map((c: { id: string }) => c.id)).toEqual(['quiz', 'lab']);
  });

  it('moves the assignments (drafts too) and the student notes with moveTo, in the same transaction', async () => {
    svc = await course();
    const res = await svc.call('DELETE', '/courses/c1/gradebook/categories/quiz?expectedVersion=1&moveTo=lab', undefined, 'inst');
    expect(res.status).toBe(200);
    expect(res.body.categories.map((c: { id: string }) => c.id)).toEqual(['lab', 'spare']);
    expect(res.body.studentNotes).toEqual([{ categoryId: 'lab', text: 'Quizzes are open book.' }]);
    expect([await categoryOf('a1'), await categoryOf('a2'), await categoryOf('a3'), await categoryOf('a4')]).toEqual(['lab', 'lab', 'lab', null]);
  });

  it('refuses a category that holds assignments without moveTo (409, the assignments listed), and changes nothing', async () => {
    svc = await course();
    const res = await svc.call('DELETE', '/courses/c1/gradebook/categories/quiz?expectedVersion=1', undefined, 'inst');
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'conflict',
      message: 'Category "quiz" holds 2 assignments (a1, a2); name the category they move to (moveTo), or move them first.',
      details: { categoryId: 'quiz', assignments: ['a1', 'a2'] },
    });
    const one = await svc.call('DELETE', '/courses/c1/gradebook/categories/lab?expectedVersion=1', undefined, 'inst');
    expect(one.body.error.message).toBe('Category "lab" holds 1 assignment (a3); name the category it moves to (moveTo), or move it first.');
    const setup = (await svc.call('GET', '/courses/c1/gradebook/setup')).body;
    expect(setup.version).toBe(1);
    expect(setup.categories).toHaveLength(3);
  });

  it('a stale expectedVersion is a conflict with the current version, before anything moves', async () => {
    svc = await course();
    const res = await svc.call('DELETE', '/courses/c1/gradebook/categories/quiz?expectedVersion=0&moveTo=lab', undefined, 'inst');
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'conflict',
      message: 'The setup is at version 1, not 0; read it again and reapply your change.',
      details: { currentVersion: 1 },
    });
    expect(await categoryOf('a1')).toBe('quiz');
  });

  it('moveTo must be another category of the setup (400, naming moveTo); nothing moves', async () => {
    svc = await course();
    const self = await svc.call('DELETE', '/courses/c1/gradebook/categories/quiz?expectedVersion=1&moveTo=quiz');
    expect(self.status).toBe(400);
    expect(self.body.error.details).toEqual([{ path: 'moveTo', message: 'must be another category than the one removed ("quiz")' }]);
    const unknown = await svc.call('DELETE', '/courses/c1/gradebook/categories/quiz?expectedVersion=1&moveTo=exams');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([
      { path: 'moveTo', message: `"exams" is not a category of the course's gradebook setup (its categories: quiz, lab, spare)` },
    ]);
    expect(await categoryOf('a1')).toBe('quiz');
  });

  it('an unknown category is not-found (404); a missing expectedVersion is invalid (400)', async () => {
    svc = await course();
    const res = await svc.call('DELETE', '/courses/c1/gradebook/categories/nope?expectedVersion=1');
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'not-found', message: 'Category "nope" is not in the gradebook setup of course "c1".' });
    const missing = await svc.call('DELETE', '/courses/c1/gradebook/categories/spare');
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toBe('expectedVersion');
  });

  it('a reviewer or a student may not remove one (403)', async () => {
    svc = await course();
    for (const who of ['rev', 'stu1']) {
      const res = await svc.call('DELETE', '/courses/c1/gradebook/categories/spare?expectedVersion=1', undefined, who);
      expect(res.status).toBe(403);
    }
  });
});

describe('POST /courses/{courseId}/assignments/category', () => {
  it('moves the listed assignments into a category and answers them in the order given', async () => {
    svc = await course();
    const res = await svc.call('POST', '/courses/c1/assignments/category', { categoryId: 'spare', assignmentIds: ['a4', 'a1'] }, 'inst');
    expect(res.status).toBe(200);
    expect(res.body.map((a: { id: string; categoryId: string }) => [a.id, a.categoryId])).toEqual([
      ['a4', 'spare'],
      ['a1', 'spare'],
    ]);
    expect(await categoryOf('a2')).toBe('quiz');
  });

  it('moves every assignment of a module (drafts too); categoryId null takes them out of every category', async () => {
    svc = await course();
    const res = await svc.call('POST', '/courses/c1/assignments/category', { categoryId: 'quiz', moduleId: 'm2' });
    expect(res.body.map((a: { id: string; categoryId: string }) => [a.id, a.categoryId])).toEqual([
      ['a3', 'quiz'],
      ['a4', 'quiz'],
    ]);
    await svc.call('POST', '/courses/c1/assignments/category', { categoryId: null, assignmentIds: ['a3'] });
    expect(await categoryOf('a3')).toBeNull();
  });

  it('all or nothing: an unknown id, one of another course, a repeat or an unknown category is listed, and nothing moves', async () => {
    svc = await course();
    const res = await svc.call('POST', '/courses/c1/assignments/category', { categoryId: 'exams', assignmentIds: ['a1', 'nope', 'ax', 'a1'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid',
      message: `4 problems: categoryId: "exams" is not a category of the course's gradebook setup (its categories: quiz, lab, spare); ...`,
    });
    expect(res.body.error.details).toEqual([
      { path: 'categoryId', message: `"exams" is not a category of the course's gradebook setup (its categories: quiz, lab, spare)` },
      { path: 'assignmentIds[1]', message: 'no assignment "nope" in course "c1"' },
      { path: 'assignmentIds[2]', message: 'no assignment "ax" in course "c1"' },
      { path: 'assignmentIds[3]', message: '"a1" is listed twice' },
    ]);
    expect(await categoryOf('a1')).toBe('quiz');
  });

  it('exactly one of assignmentIds and moduleId; a module of another course is invalid', async () => {
    svc = await course();
    const both = await svc.call('POST', '/courses/c1/assignments/category', { categoryId: 'lab', assignmentIds: ['a1'], moduleId: 'm1' });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([{ path: 'assignmentIds', message: 'give assignmentIds or moduleId (exactly one)' }]);
    const neither = await svc.call('POST', '/courses/c1/assignments/category', { categoryId: 'lab' });
    expect(neither.body.error.details).toEqual([{ path: 'assignmentIds', message: 'give assignmentIds or moduleId (exactly one)' }]);
    const other = await svc.call('POST', '/courses/c1/assignments/category', { categoryId: 'lab', moduleId: 'mx' });
    expect(other.body.error.details).toEqual([{ path: 'moduleId', message: 'no module "mx" in course "c1"' }]);
  });

  it('a reviewer may not (403); an outsider does not see the course (404)', async () => {
    svc = await course();
    expect((await svc.call('POST', '/courses/c1/assignments/category', { categoryId: 'lab', assignmentIds: ['a1'] }, 'rev')).status).toBe(403);
    expect((await svc.call('POST', '/courses/c1/assignments/category', { categoryId: 'lab', assignmentIds: ['a1'] }, 'out')).status).toBe(404);
  });
});
