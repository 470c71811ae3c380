/**
 * Rules that several entry paths must honour answer the same on every path (the
 * Architecture issue's divergences): each test drives two or more paths with the same
 * input and expects the same verdict.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { importDataset } from '../../src/store/dataset.js';
import { makeService, type TestService } from '../helpers/app.js';

let svc: TestService;
afterEach(() => svc?.close());

const BAD_RUBRIC = {
  id: 'bad',
  name: 'Bad rubric',
  attribution: 'Ours',
  standards: [
    {
      standardId: 's1',
      number: '1',
      title: 'Basics',
      items: [{ itemId: 'b1', number: '1.1', text: 'Checks nothing real', kind: 'automatic', essential: true, check: 'no-such-check' }],
    },
  ],
};

describe('a course names an installed rubric, on every creation and change path', () => {
  it('POST /courses with an unknown rubricId is invalid naming rubricId, like PATCH (it used to answer 201)', async () => {
    svc = await makeService();
    const created = await svc.call('POST', '/courses', { title: 'T', rubricId: 'nope' });
    const patched = await svc.call('PATCH', '/courses/c1', { rubricId: 'nope' });
    for (const res of [created, patched]) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid');
      expect(res.body.error.details).toEqual([{ path: 'rubricId', message: 'no rubric "nope" is installed (see coursebook rubrics list)' }]);
    }
    expect((await svc.call('GET', '/courses')).body.map((c: { id: string }) => c.id)).toEqual(['c1']);
  });

  it('a course file naming an unknown rubric is refused with the same message, and nothing is written', async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/courses/import', { coursebookCourse: 1, course: { title: 'Offline', rubricId: 'nope' } });
    expect(res.status).toBe(400);
    // At its path in the course file, not in the dataset the file becomes.
    expect(res.body.error).toMatchObject({
      message: 'The course file has 1 problem; nothing was imported.',
      details: [{ path: 'course.rubricId', message: 'no rubric "nope" is installed (see coursebook rubrics list)' }],
    });
    expect((await svc.call('GET', '/courses')).body).toHaveLength(1);
  });

  it('a dataset may name a rubric it brings along, not one that is nowhere', async () => {
    svc = await makeService();
    const known = (await svc.call('GET', '/rubrics/course-essentials')).body.standards[0].items[1].check;
    const rubric = {
      ...BAD_RUBRIC,
      id: 'mine',
      standards: [{ ...BAD_RUBRIC.standards[0]!, items: [{ ...BAD_RUBRIC.standards[0]!.items[0]!, check: known }] }],
    };
    await expect(
      importDataset(svc.store, svc.clock, { coursebook: 1, courses: [{ id: 'c2', title: 'Two', rubricId: 'missing' }] }, { replace: false }),
    ).rejects.toThrow(
      expect.objectContaining({
        code: 'invalid',
        details: [{ path: 'courses[0].rubricId', message: 'no rubric "missing" is installed (see coursebook rubrics list)' }],
      }),
    );
    await importDataset(
      svc.store,
      svc.clock,
      { coursebook: 1, rubrics: [rubric], courses: [{ id: 'c2', title: 'Two', rubricId: 'mine' }] },
      { replace: false },
    );
    expect((await svc.call('GET', '/courses/c2/readiness')).body.rubricId).toBe('mine');
  });
});

describe('a standards rubric is sound wherever it comes from', () => {
  it('an automatic item with an unknown check is refused by POST /rubrics and by a dataset import alike (import used to accept it)', async () => {
    svc = await makeService();
    const posted = await svc.call('POST', '/rubrics', BAD_RUBRIC);
    expect(posted.status).toBe(400);
    expect(posted.body.error.details).toEqual([{ path: 'standards[0].items[0].check', message: 'unknown check "no-such-check"' }]);
    let thrown: { code?: string; details?: unknown } = {};
    try {
      await importDataset(svc.store, svc.clock, { coursebook: 1, rubrics: [BAD_RUBRIC] }, { replace: false });
    } catch (err) {
      thrown = err as typeof thrown;
    }
    expect(thrown.code).toBe('invalid');
    expect(thrown.details).toEqual([{ path: 'rubrics[0].standards[0].items[0].check', message: 'unknown check "no-such-check"' }]);
    expect((await svc.call('GET', '/rubrics/bad')).status).toBe(404);
  });

  it('the import route answers the same 400 for the same rubric', async () => {
    svc = await makeService();
    const res = await svc.call('POST', '/import', { coursebook: 1, rubrics: [BAD_RUBRIC] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'rubrics[0].standards[0].items[0].check', message: 'unknown check "no-such-check"' }]);
  });
});

describe("a standards rubric's problems come in one answer with its shape's", () => {
  // No attribution (shape), a duplicate item id and an automatic item with no check (rules),
  // and a check of the wrong type (shape only: the rule does not judge it again).
  const items = [
    { itemId: 'b1', number: '1.1', text: 'One', kind: 'automatic', essential: true, check: 'no-such-check' },
    { itemId: 'b1', number: '1.2', text: 'Two', kind: 'automatic', essential: true },
    { itemId: 'b3', number: '1.3', text: 'Three', kind: 'human', essential: true, check: 5 },
  ];
  const { attribution: _dropped, ...unattributed } = { ...BAD_RUBRIC, standards: [{ ...BAD_RUBRIC.standards[0]!, items }] };
  const problems = [
    { path: 'attribution', message: 'is required' },
    { path: 'standards[0].items[2].check', message: 'must be a string' },
    { path: 'standards[0].items[0].check', message: 'unknown check "no-such-check"' },
    { path: 'standards[0].items[1].itemId', message: 'duplicate item id "b1"' },
    { path: 'standards[0].items[1].check', message: 'is required for an automatic item' },
  ];

  it('POST /rubrics and a dataset import list both at once', async () => {
    svc = await makeService();
    const posted = await svc.call('POST', '/rubrics', unattributed);
    expect(posted.status).toBe(400);
    expect(posted.body.error.details).toEqual(problems);
    const imported = await svc.call('POST', '/import', { coursebook: 1, rubrics: [unattributed] });
    expect(imported.status).toBe(400);
    expect(imported.body.error.details).toEqual(problems.map((p) => ({ ...p, path: `rubrics[0].${p.path}` })));
  });
});

describe('a gradebook setup is sound wherever it comes from', () => {
  it('duplicate category ids are refused by PUT .../setup, by a course file and by a dataset', async () => {
    svc = await makeService();
    const setup = (await svc.call('GET', '/courses/c1/gradebook/setup')).body;
    const category = {
      id: 'hw',
      courseId: 'c1',
      name: 'Homework',
      position: 0,
      weight: 50,
      drop: { lowest: 0, highest: 0, keepAtLeast: 1 },
      lateApplies: true,
    };
    const doubled = { ...setup, categories: [category, { ...category, name: 'Again', position: 1 }] };
    const put = await svc.call('PUT', '/courses/c1/gradebook/setup', doubled);
    expect(put.status).toBe(400);
    expect(put.body.error.details).toEqual([{ path: 'categories[1].id', message: 'duplicate category id "hw"' }]);

    const file = await svc.call('POST', '/courses/import', {
      coursebookCourse: 1,
      course: { id: 'c9', title: 'Nine' },
      gradebookSetup: { ...doubled, courseId: 'c9' },
    });
    expect(file.status).toBe(400);
    expect(file.body.error.details).toEqual([{ path: 'gradebookSetup.categories[1].id', message: 'duplicate category id "hw"' }]);

    const dataset = await svc.call('POST', '/import', { coursebook: 1, gradebookSetups: [doubled] }, 'admin');
    expect(dataset.status).toBe(400);
    expect(dataset.body.error.details).toEqual([{ path: 'gradebookSetups[0].categories[1].id', message: 'duplicate category id "hw"' }]);
  });

  it('an unknown rules edition is unsupported on PUT and listed as a problem by an import', async () => {
    svc = await makeService();
    const setup = (await svc.call('GET', '/courses/c1/gradebook/setup')).body;
    const put = await svc.call('PUT', '/courses/c1/gradebook/setup', { ...setup, rulesVersion: 2 });
    expect(put.status).toBe(415);
    expect(put.body.error).toMatchObject({ code: 'unsupported', details: { rulesVersion: 2, supported: [1] } });
    const dataset = await svc.call('POST', '/import', { coursebook: 1, gradebookSetups: [{ ...setup, rulesVersion: 2 }] });
    expect(dataset.status).toBe(400);
    expect(dataset.body.error.details[0].path).toBe('gradebookSetups[0].rulesVersion');
  });
});

describe('every new course gets its gradebook setup', () => {
  it('from POST /courses, a template and a course file alike', async () => {
    svc = await makeService();
    const direct = (await svc.call('POST', '/courses', { title: 'Direct' })).body.id;
    await svc.call('POST', '/templates', { id: 'tpl', name: 'Template' });
    const fromTemplate = (await svc.call('POST', '/templates/tpl/courses', { title: 'From template' })).body.id;
    const fromFile = (await svc.call('POST', '/courses/import', { coursebookCourse: 1, course: { title: 'From a file' } })).body.courseId;
    const setups = await Promise.all([direct, fromTemplate, fromFile].map((id) => svc.call('GET', `/courses/${id}/gradebook/setup`)));
    expect(setups.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(setups.map((s) => s.body.version)).toEqual([1, 1, 1]);
  });
});

describe('the publish gate holds on every path that publishes', () => {
  it('a course file that says published is refused like POST /publish, naming the same blocking items', async () => {
    svc = await makeService();
    await svc.call('POST', '/courses', { id: 'thin', title: 'Thin' });
    const published = await svc.call('POST', '/courses/thin/publish');
    expect(published.status).toBe(409);
    expect(published.body.error.code).toBe('not-ready');
    const viaFile = await svc.call('POST', '/courses/import', { coursebookCourse: 1, course: { id: 'thin2', title: 'Thin', status: 'published' } });
    expect(viaFile.status).toBe(409);
    expect(viaFile.body.error.code).toBe('not-ready');
    expect(viaFile.body.error.details.blocking).toEqual(published.body.error.details.blocking);
    expect((await svc.call('GET', '/courses/thin2')).status).toBe(404);
  });
});

describe('a finding is for an ai item of the course rubric, wherever it is written', () => {
  it("the finding route and a first copy's readiness evidence refuse a human item with the same problem", async () => {
    svc = await makeService();
    const finding = { verdict: 'met', evidence: 'Stated in the syllabus.' };
    const viaRoute = await svc.call('PUT', '/courses/c1/readiness/items/1.3/finding', finding);
    expect(viaRoute.status).toBe(400);
    const viaCopy = await svc.call('PUT', '/courses/fresh/content', {
      coursebookCourse: 1,
      course: { title: 'Fresh' },
      readiness: { findings: [{ itemId: '1.3', ...finding }] },
    });
    expect(viaCopy.status).toBe(400);
    expect(viaRoute.body.error.details).toEqual([{ path: 'itemId', message: 'must name an ai item (item 1.3 is human)' }]);
    expect(viaCopy.body.error.details).toEqual([{ path: 'readiness.findings[0].itemId', message: 'must name an ai item (item 1.3 is human)' }]);
    expect((await svc.call('GET', '/courses/fresh')).status).toBe(404);
  });
});

describe('random draws come from the injected id source', () => {
  it('certificate codes repeat exactly under sequential ids (serve --deterministic)', async () => {
    const codes: string[] = [];
    for (let run = 0; run < 2; run++) {
      svc = await makeService();
      const issued = await svc.call('POST', '/certificates', { userId: 'stu1', courseId: 'c1', basis: 'completed' });
      expect(issued.status).toBe(201);
      codes.push(issued.body.code);
      svc.close();
    }
    expect(codes).toEqual(['0000-0000-0001', '0000-0000-0001']);
  });

  it('token secrets too, with the shape of a random one', async () => {
    svc = await makeService();
    const created = await svc.call('POST', '/tokens', { name: 'ci', scopes: ['*'] });
    expect(created.body.token).toMatch(/^cbk_fixture0+1$/);
    expect(created.body.token).toHaveLength(47);
  });
});
