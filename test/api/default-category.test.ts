/**
 * The default category (issue #13): every new course starts with one category,
 * `assignments`, whatever path creates it, and an assignment created without
 * `categoryId` goes into the setup's first category by (position, id). A dataset stays
 * faithful to its file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { importDataset } from '../../src/store/dataset.js';
import { type DatasetRecord, makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const DEFAULT_CATEGORY = (courseId: string) => ({
  id: 'assignments',
  courseId,
  name: 'Assignments',
  position: 0,
  weight: 100,
  drop: { lowest: 0, highest: 0, keepAtLeast: 1 },
  lateApplies: true,
});

const categoriesOf = async (courseId: string) => (await svc.call('GET', `/courses/${courseId}/gradebook/setup`)).body.categories;

/** A full setup for c1 whose categories are listed out of order: `late` (position 0) comes first by position. */
const twoCategorySetup = (courseId = 'c1'): DatasetRecord<'gradebookSetups'> => ({
  courseId,
  mode: 'weighted',
  categories: [
    { id: 'early', courseId, name: 'Early', position: 1, weight: 50, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
    { id: 'late', courseId, name: 'Late', position: 0, weight: 50, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
  ],
  late: { enabled: false, percentPerPeriod: 0, period: 'day', basis: 'possible', maxPeriods: null, afterMax: 'hold-at-max', graceMinutes: 0 },
  missing: { treatAs: 'exclude-until-graded', droppable: false },
  extraCredit: { categoryCapPercent: null, courseCapPoints: null },
  scheme: { id: 's', name: 'S', bands: [{ letter: 'P', min: 0 }], rounding: { decimals: 1, mode: 'half-up' }, letterFrom: 'rounded' },
  emptyCategory: 'share-weight',
  studentNotes: [],
  dismissedChecks: [],
  source: { kind: 'manual', designSessionId: null },
  version: 1,
  rulesVersion: 1,
  updatedBy: 'x',
  updatedAt: 'x',
});

describe('a new course starts with the Assignments category', () => {
  it('POST /courses', async () => {
    svc = await makeService();
    const course = (await svc.call('POST', '/courses', { id: 'c2', title: 'New' })).body;
    expect(await categoriesOf(course.id)).toEqual([DEFAULT_CATEGORY('c2')]);
  });

  it('a template (POST /templates/{id}/courses)', async () => {
    svc = await makeService({ templates: [{ id: 'tpl', name: 'T' }] });
    const res = await svc.call('POST', '/templates/tpl/courses', { id: 'c3', title: 'From T' });
    expect(res.status).toBe(201);
    expect(await categoriesOf('c3')).toEqual([DEFAULT_CATEGORY('c3')]);
  });

  it('a course file without a setup; its assignments without categoryId go into it, categoryId null stays in none', async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/courses/import', {
      coursebookCourse: 1,
      course: { id: 'cf', title: 'Offline' },
      modules: [
        {
          id: 'mf',
          title: 'M',
          assignments: [
            { id: 'af1', title: 'No category given', points: 10 },
            { id: 'af2', title: 'Explicitly none', points: 10, categoryId: null },
          ],
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(await categoriesOf('cf')).toEqual([DEFAULT_CATEGORY('cf')]);
    const items = (await svc.call('GET', '/courses/cf/assignments')).body;
    expect(items.map((a: { id: string; categoryId: string | null }) => [a.id, a.categoryId])).toEqual([
      ['af1', 'assignments'],
      ['af2', null],
    ]);
  });

  it("a course file with its own setup: a missing categoryId means that setup's first category by position", async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/courses/import', {
      coursebookCourse: 1,
      course: { id: 'cg', title: 'Own setup' },
      modules: [{ id: 'mg', title: 'M', assignments: [{ id: 'ag1', title: 'A', points: 10 }] }],
      gradebookSetup: twoCategorySetup('whatever'),
    });
    expect(res.status).toBe(201);
    expect((await categoriesOf('cg')).map((c: { id: string }) => c.id)).toEqual(['early', 'late']);
    expect((await svc.call('GET', '/assignments/ag1')).body.categoryId).toBe('late');
  });

  it('a dataset stays faithful: its assignments keep categoryId null, and a course without a setup gets the default', async () => {
    svc = await makeService();
    await importDataset(
      svc.store,
      svc.clock,
      {
        coursebook: 1,
        courses: [{ id: 'cd', title: 'From a dataset' }],
        modules: [{ id: 'md', courseId: 'cd', title: 'M' }],
        assignments: [{ id: 'ad', moduleId: 'md', title: 'A', points: 5 }],
      },
      { replace: false },
    );
    expect(await categoriesOf('cd')).toEqual([DEFAULT_CATEGORY('cd')]);
    expect((await svc.call('GET', '/assignments/ad')).body.categoryId).toBeNull();
  });
});

describe('an assignment created without categoryId', () => {
  it('goes into the default category of a new course, and counts in the export once its module is published too', async () => {
    svc = await makeService();
    await svc.call('POST', '/courses', { id: 'c2', title: 'New' });
    const mod = (await svc.call('POST', '/courses/c2/modules', { title: 'M' })).body;
    const a = (await svc.call('POST', `/modules/${mod.id}/assignments`, { title: 'Essay 1', points: 10 })).body;
    expect(a.categoryId).toBe('assignments');
    await svc.call('POST', `/assignments/${a.id}/publish`);
    const header = async () => ((await svc.call('GET', '/courses/c2/gradebook/export')).body.csv as string).split('\r\n')[0];
    // A new module is a draft: students see nothing in it, so the gradebook has no item yet.
    expect(await header()).toBe('Student,Student ID,Assignments %,Calculated %,Calculated Letter,Override %,Override Letter,Final %,Final Letter');
    await svc.call('POST', `/modules/${mod.id}/publish`);
    expect(await header()).toBe(
      `Student,Student ID,Essay 1 (${a.id}),Assignments %,Calculated %,Calculated Letter,Override %,Override Letter,Final %,Final Letter`,
    );
  });

  it('goes into the first category by position (then id), not the first listed', async () => {
    svc = await makeService({ gradebookSetups: [twoCategorySetup()] });
    const a = (await svc.call('POST', '/modules/m1/assignments', { title: 'A', points: 10 })).body;
    expect(a.categoryId).toBe('late');
  });

  it('a tie on position goes to the smaller id (code-point order)', async () => {
    const setup = twoCategorySetup();
    setup.categories[0]!.position = 0;
    svc = await makeService({ gradebookSetups: [setup] });
    expect((await svc.call('POST', '/modules/m1/assignments', { title: 'A', points: 10 })).body.categoryId).toBe('early');
  });

  it('stays in no category when the setup has none, or when categoryId is null', async () => {
    svc = await makeService({ gradebookSetups: [{ ...twoCategorySetup(), categories: [] }] });
    expect((await svc.call('POST', '/modules/m1/assignments', { title: 'A', points: 10 })).body.categoryId).toBeNull();
    svc.close();
    svc = await makeService();
    expect((await svc.call('POST', '/modules/m1/assignments', { title: 'A', points: 10, categoryId: null })).body.categoryId).toBeNull();
  });

  it('an unknown categoryId is still invalid, naming the categories there are', async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/modules/m1/assignments', { title: 'A', points: 10, categoryId: 'quizzes' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'invalid',
      message: `categoryId: "quizzes" is not a category of the course's gradebook setup (its categories: assignments)`,
      details: [{ path: 'categoryId', message: `"quizzes" is not a category of the course's gradebook setup (its categories: assignments)` }],
    });
  });
});
