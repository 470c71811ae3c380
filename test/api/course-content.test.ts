/**
 * GET|PUT /courses/{courseId}/content and the sync marks (#14): the course file with every
 * id at a revision; a write that makes the stored course equal to a file by id, all or
 * nothing, answering its plan; stale revisions, student work, ids of other courses, the
 * publish gate and access.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DatasetInput } from '../../src/schemas/dataset.js';
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

/**
 * c1: m1 (published) with lessons l1 (published; blocks b1, b2), l2 (b3), l3 and assignment
 * a1 (published, instructions i1, a submission by stu1); m2 (published) with l4 (b4). c2 is
 * another course, taught by inst2, with module x1.
 */
function authored(extra: Partial<DatasetInput> = {}): Promise<TestService> {
  return makeService({
    users: [{ id: 'inst2', name: 'Olga Other' }],
    tokens: [{ token: 'tok-inst2', userId: 'inst2', scopes: ['*'] }],
    courses: [
      { id: 'c1', title: 'Course One', description: 'A test course.' },
      { id: 'c2', title: 'Course Two' },
    ],
    enrollments: [{ courseId: 'c2', userId: 'inst2', role: 'instructor' }],
    modules: [
      { id: 'm2', courseId: 'c1', title: 'Module Two', status: 'published' },
      { id: 'x1', courseId: 'c2', title: 'Other module' },
    ],
    lessons: [
      { id: 'l1', moduleId: 'm1', title: 'Welcome', minutes: 10, status: 'published', publishedAt: '2026-11-01T00:00:00Z' },
      { id: 'l2', moduleId: 'm1', title: 'Setup', minutes: 20 },
      { id: 'l3', moduleId: 'm1', title: 'First steps', minutes: 30 },
      { id: 'l4', moduleId: 'm2', title: 'Deeper', minutes: 40 },
    ],
    blocks: [
      { id: 'b1', lessonId: 'l1', type: 'heading', level: 2, text: 'Hello' },
      { id: 'b2', lessonId: 'l1', type: 'paragraph', text: 'Old news.' },
      { id: 'b3', lessonId: 'l2', type: 'paragraph', text: 'Install it.' },
      { id: 'b4', lessonId: 'l4', type: 'divider' },
    ],
    assignments: [
      {
        id: 'a1',
        moduleId: 'm1',
        title: 'Essay',
        points: 10,
        status: 'published',
        publishedAt: '2026-11-02T00:00:00Z',
        instructions: [{ id: 'i1', type: 'paragraph', text: 'Write 500 words.' }],
      },
    ],
    submissions: [{ id: 's1', assignmentId: 'a1', studentId: 'stu1', attempt: 1, submittedAt: '2026-11-20T00:00:00Z', text: 'Mine.' }],
    ...extra,
  });
}

/** A course file as JSON: the tests edit it freely. */
type Doc = any;

async function content(courseId = 'c1', as = 'admin'): Promise<Doc> {
  const res = await svc.call('GET', `/courses/${courseId}/content`, undefined, as);
  expect(res.status).toBe(200);
  return res.body;
}

/** The course file part of a GET body (everything but the revision). */
function fileOf(doc: Doc): Doc {
  const { contentRevision: _r, ...file } = structuredClone(doc);
  return file;
}

const put = (file: Doc, extra: Record<string, unknown> = {}, as = 'admin', courseId = 'c1') =>
  svc.call('PUT', `/courses/${courseId}/content`, { ...file, ...extra }, as);

const ids = (list: { id: string }[]) => list.map((x) => x.id);
const EMPTY_KIND = { added: [], changed: [], moved: [], removed: [] };

describe('GET /courses/{courseId}/content', () => {
  it('answers the course file with every id, the same as the export, plus contentRevision', async () => {
    svc = await authored();
    const doc = await content();
    const exported = (await svc.call('GET', '/courses/c1/export')).body;
    expect(fileOf(doc)).toEqual(exported);
    expect(Number.isInteger(doc.contentRevision)).toBe(true);
    expect(ids(doc.modules)).toEqual(['m1', 'm2']);
    expect(ids(doc.modules[0].lessons)).toEqual(['l1', 'l2', 'l3']);
    expect(ids(doc.modules[0].lessons[0].blocks)).toEqual(['b1', 'b2']);
    expect(ids(doc.modules[0].assignments[0].instructions)).toEqual(['i1']);
  });

  it('every content change bumps the revision by one per changed row; reads, no-op writes, submissions and enrollments do not', async () => {
    svc = await authored();
    const rev = async () => (await content()).contentRevision as number;
    const r0 = await rev();
    await svc.call('GET', '/courses/c1/export');
    expect(await rev()).toBe(r0);
    expect((await svc.call('PATCH', '/courses/c1', { title: 'Course 1' })).status).toBe(200);
    expect(await rev()).toBe(r0 + 1);
    await svc.call('PATCH', '/courses/c1', { title: 'Course 1' });
    expect(await rev()).toBe(r0 + 1);
    await svc.call('PATCH', '/modules/m2', { objective: 'Go deeper.' });
    expect(await rev()).toBe(r0 + 2);
    await svc.call('PATCH', '/lessons/l3', { minutes: 35 });
    expect(await rev()).toBe(r0 + 3);
    await svc.call('POST', '/lessons/l3/blocks', { type: 'divider' });
    expect(await rev()).toBe(r0 + 4);
    await svc.call('PATCH', '/blocks/b3', { type: 'paragraph', text: 'Install it twice.' });
    expect(await rev()).toBe(r0 + 5);
    await svc.call('PATCH', '/assignments/a1', { rubric: RUBRIC });
    expect(await rev()).toBe(r0 + 6);
    const setup = (await svc.call('GET', '/courses/c1/gradebook/setup')).body;
    await svc.call('PUT', '/courses/c1/gradebook/setup', { ...setup, late: { ...setup.late, enabled: true } });
    expect(await rev()).toBe(r0 + 7);
    // Not content: student work and people.
    await svc.call('POST', '/assignments/a1/submissions', { text: 'Again.' }, 'stu1');
    await svc.call('POST', '/courses/c1/enrollments', { userId: 'out', role: 'student' });
    expect(await rev()).toBe(r0 + 7);
    // Another course's edits leave this one alone.
    await svc.call('PATCH', '/courses/c2', { title: 'Course 2' });
    expect(await rev()).toBe(r0 + 7);
  });

  it('is for the course instructors and admins: reviewers and students 403, outsiders and unknown courses 404', async () => {
    svc = await authored();
    expect((await svc.call('GET', '/courses/c1/content', undefined, 'inst')).status).toBe(200);
    expect((await svc.call('GET', '/courses/c1/content', undefined, 'rev')).body.error.code).toBe('forbidden');
    expect((await svc.call('GET', '/courses/c1/content', undefined, 'stu1')).status).toBe(403);
    expect((await svc.call('GET', '/courses/c1/content', undefined, 'inst2')).status).toBe(404);
    const missing = await svc.call('GET', '/courses/nope/content');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: 'not-found', message: 'Course "nope" was not found.' });
  });
});

describe('PUT /courses/{courseId}/content', () => {
  it('writing back what GET answered changes nothing: an empty plan, the same revision', async () => {
    svc = await authored();
    const doc = await content();
    const res = await put(fileOf(doc), { expectedRevision: doc.contentRevision });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      courseId: 'c1',
      dryRun: false,
      created: false,
      previousRevision: doc.contentRevision,
      revision: doc.contentRevision,
      changes: 0,
      plan: {
        course: { created: false, changed: [] },
        modules: EMPTY_KIND,
        lessons: EMPTY_KIND,
        assignments: EMPTY_KIND,
        blocks: EMPTY_KIND,
        gradebookSetup: { changed: [] },
      },
    });
  });

  it("an author's edits: rename a lesson, delete a block, reorder lessons, add an assignment with a rubric, move a block to another lesson", async () => {
    svc = await authored();
    const doc = await content();
    const file = fileOf(doc);
    const [l1, l2, l3] = file.modules[0].lessons;
    l2.title = 'Set up';
    const moved = l1.blocks.pop(); // b2 leaves l1 ...
    l3.blocks.push(moved); // ... for l3
    file.modules[1].lessons[0].blocks = []; // b4 deleted
    file.modules[0].lessons = [l3, l1, l2];
    file.modules[1].assignments.push({
      id: 'a2',
      title: 'Quiz',
      points: 5,
      dueAt: null,
      submissionType: 'text',
      categoryId: null,
      status: 'draft',
      publishedAt: null,
      rubric: RUBRIC,
      instructions: [{ id: 'i2', type: 'paragraph', text: 'Answer all.' }],
    });
    const res = await put(file, { expectedRevision: doc.contentRevision });
    expect(res.status).toBe(200);
    expect(res.body.plan).toEqual({
      course: { created: false, changed: [] },
      modules: EMPTY_KIND,
      lessons: { added: [], changed: [{ id: 'l2', fields: ['title'] }], moved: ['l3'], removed: [] },
      assignments: { added: ['a2'], changed: [], moved: [], removed: [] },
      blocks: { added: ['i2'], changed: [], moved: ['b2'], removed: ['b4'] },
      gradebookSetup: { changed: [] },
    });
    expect(res.body.changes).toBe(6);
    expect(res.body.revision).toBeGreaterThan(doc.contentRevision);
    const after = await content();
    expect(after.contentRevision).toBe(res.body.revision);
    expect(fileOf(after)).toEqual(file);
    // Positions follow the file; the moved block kept its id and content.
    expect((await svc.call('GET', '/lessons/l3')).body.position).toBe(0);
    expect((await svc.call('GET', '/blocks/b2')).body).toMatchObject({ lessonId: 'l3', position: 0, text: 'Old news.' });
    expect((await svc.call('GET', '/blocks/b4')).status).toBe(404);
    // Student work stays.
    expect((await svc.call('GET', '/submissions/s1')).body).toMatchObject({ assignmentId: 'a1', text: 'Mine.' });
  });

  it('a dry run answers the same plan and writes nothing', async () => {
    svc = await authored();
    const doc = await content();
    const file = fileOf(doc);
    file.course.title = 'Renamed course';
    file.modules.reverse();
    const dry = await put(file, { expectedRevision: doc.contentRevision, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, previousRevision: doc.contentRevision, revision: doc.contentRevision, changes: 2 });
    expect(dry.body.plan.course.changed).toEqual(['title']);
    expect(dry.body.plan.modules.moved).toEqual(['m2']);
    expect(await content()).toEqual(doc);
    const wet = await put(file, { expectedRevision: doc.contentRevision });
    expect(wet.body.plan).toEqual(dry.body.plan);
  });

  it('reports the fewest moves: deleting a lesson moves nothing; reversing three moves two', async () => {
    svc = await authored();
    const doc = await content();
    const file = fileOf(doc);
    file.modules[0].lessons.shift();
    const del = await put(file, { dryRun: true });
    expect(del.body.plan.lessons).toEqual({ added: [], changed: [], moved: [], removed: ['l1'] });
    expect(del.body.plan.blocks.removed).toEqual(['b1', 'b2']);
    const rev = fileOf(doc);
    rev.modules[0].lessons.reverse();
    expect((await put(rev, { dryRun: true })).body.plan.lessons.moved).toEqual(['l3', 'l2']);
  });

  it('changes fields of every kind, naming them', async () => {
    svc = await authored();
    const file = fileOf(await content());
    file.course.objectives = ['Read a chart'];
    file.modules[1].objective = 'Deeper still.';
    file.modules[0].assignments[0].points = 12;
    file.modules[0].assignments[0].rubric = RUBRIC;
    file.modules[0].lessons[0].blocks[0] = { id: 'b1', type: 'heading', level: 3, text: 'Hello' };
    const res = await put(file);
    expect(res.body.plan).toMatchObject({
      course: { changed: ['objectives'] },
      modules: { changed: [{ id: 'm2', fields: ['objective'] }] },
      assignments: { changed: [{ id: 'a1', fields: ['points', 'rubric'] }] },
      blocks: { changed: [{ id: 'b1', fields: ['level'] }] },
    });
    expect(fileOf(await content())).toEqual(file);
  });

  it('a stale expectedRevision is conflict naming both revisions; nothing is written', async () => {
    svc = await authored();
    const doc = await content();
    await svc.call('PATCH', '/lessons/l1', { title: 'Someone else was here' });
    const now = await content();
    const file = fileOf(doc);
    file.modules[0].lessons[1].title = 'Mine';
    const res = await put(file, { expectedRevision: doc.contentRevision });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
    expect(res.body.error.message).toBe(
      `Course "c1" is at revision ${now.contentRevision}, not ${doc.contentRevision}: it changed since that revision was read. Read it again and reapply your changes, or leave expectedRevision out to overwrite them.`,
    );
    expect(res.body.error.details).toEqual({ courseId: 'c1', expectedRevision: doc.contentRevision, currentRevision: now.contentRevision });
    expect(await content()).toEqual(now);
    // A dry run is refused the same way; leaving the revision out overwrites.
    expect((await put(file, { expectedRevision: doc.contentRevision, dryRun: true })).status).toBe(409);
    expect((await put(file)).body.plan.lessons.changed).toEqual([
      { id: 'l1', fields: ['title'] },
      { id: 'l2', fields: ['title'] },
    ]);
  });

  it('expectedRevision null means "create": conflict for an existing course; a number for a missing course is conflict too', async () => {
    svc = await authored();
    const doc = await content();
    const existing = await put(fileOf(doc), { expectedRevision: null });
    expect(existing.status).toBe(409);
    expect(existing.body.error.message).toBe(
      `Course "c1" already exists (revision ${doc.contentRevision}); send expectedRevision ${doc.contentRevision} to change it.`,
    );
    const missing = await put({ coursebookCourse: 1, course: { title: 'New' }, modules: [] }, { expectedRevision: 3 }, 'admin', 'c9');
    expect(missing.status).toBe(409);
    expect(missing.body.error.details).toEqual({ courseId: 'c9', expectedRevision: 3, currentRevision: null });
  });

  it("creates a course that does not exist with the file's ids (admins); GET then answers the same file", async () => {
    svc = await authored();
    const file = fileOf(await content());
    file.course.id = 'c9';
    // New ids throughout: ids are unique across the store.
    file.modules = [
      {
        id: 'n1',
        title: 'Start',
        objective: '',
        status: 'draft',
        lessons: [{ id: 'nl1', title: 'Hi', minutes: 5, status: 'draft', publishedAt: null, blocks: [{ id: 'nb1', type: 'paragraph', text: 'Hi.' }] }],
        assignments: [],
      },
    ];
    const res = await put(file, { expectedRevision: null }, 'admin', 'c9');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ courseId: 'c9', created: true, previousRevision: null, changes: 4 });
    expect(res.body.plan).toMatchObject({ course: { created: true }, modules: { added: ['n1'] }, lessons: { added: ['nl1'] }, blocks: { added: ['nb1'] } });
    const created = await content('c9');
    expect(created.contentRevision).toBe(res.body.revision);
    const expected = structuredClone(file);
    expected.gradebookSetup.courseId = 'c9';
    for (const category of expected.gradebookSetup.categories) category.courseId = 'c9';
    expect(fileOf(created)).toEqual(expected);
    // A dry run of a creation writes nothing and has no revision.
    const dry = await put({ ...file, course: { ...file.course, id: 'c8' }, modules: [] }, { dryRun: true }, 'admin', 'c8');
    expect(dry.body).toMatchObject({ created: true, revision: null, previousRevision: null, changes: 1 });
    expect((await svc.call('GET', '/courses/c8')).status).toBe(404);
  });

  it('only admins create: to anyone else a course that does not exist is not-found', async () => {
    svc = await authored();
    const file = { coursebookCourse: 1, course: { title: 'Mine' }, modules: [] };
    for (const who of ['inst', 'inst2', 'stu1', 'out']) {
      const res = await put(file, { expectedRevision: null }, who, 'c9');
      expect(res.status, who).toBe(404);
      expect(res.body.error).toEqual({ code: 'not-found', message: 'Course "c9" was not found.' });
    }
    expect((await svc.call('GET', '/courses/c9')).status).toBe(404);
  });

  it("instructors of the course may write it; another course's instructor gets not-found; reviewers and students forbidden", async () => {
    svc = await authored();
    const file = fileOf(await content());
    file.modules[0].lessons[2].title = 'By the instructor';
    expect((await put(file, {}, 'inst')).body.changes).toBe(1);
    file.modules[0].lessons[2].title = 'By another';
    const other = await put(file, {}, 'inst2');
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not-found');
    for (const who of ['rev', 'stu1']) {
      const res = await put(file, {}, who);
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({ code: 'forbidden', message: "Only the course's instructors and admins may do this." });
    }
    expect((await content()).modules[0].lessons[2].title).toBe('By the instructor');
  });

  it('student work is never lost: deleting, unpublishing or hiding an assignment with submissions is conflict naming it; nothing is written', async () => {
    svc = await authored();
    const doc = await content();
    const cases: [string, (f: Doc) => void, string][] = [
      ['deleted', (f) => (f.modules[0].assignments = []), 'would be deleted'],
      ['its module deleted', (f) => f.modules.shift(), 'would be deleted'],
      ['back to draft', (f) => Object.assign(f.modules[0].assignments[0], { status: 'draft', publishedAt: null }), ''],
      ['module to draft', (f) => (f.modules[0].status = 'draft'), 'would be hidden in a draft module'],
    ];
    for (const [label, edit, words] of cases) {
      const file = fileOf(doc);
      edit(file);
      const res = await put(file, { expectedRevision: doc.contentRevision });
      expect(res.status, label).toBe(409);
      expect(res.body.error.code).toBe('conflict');
      expect(res.body.error.message).toBe(
        words === ''
          ? 'Assignment a1 has 1 submission; it cannot go back to draft.'
          : `Student work would be lost: a1 ("Essay", 1 submission) ${words}. Nothing was changed.`,
      );
      expect(res.body.error.details.assignments).toEqual([expect.objectContaining({ id: 'a1', title: 'Essay', submissions: 1 })]);
      expect(await content()).toEqual(doc);
    }
    // Moving it to another published module, renaming it: fine, and the submission stays.
    const file = fileOf(doc);
    const [a1] = file.modules[0].assignments.splice(0, 1);
    a1.title = 'Essay (revised)';
    file.modules[1].assignments.push(a1);
    const ok = await put(file);
    expect(ok.body.plan.assignments).toEqual({ added: [], changed: [{ id: 'a1', fields: ['title'] }], moved: ['a1'], removed: [] });
    expect((await svc.call('GET', '/assignments/a1/submissions')).body.map((s: { id: string }) => s.id)).toEqual(['s1']);
  });

  it('ids of another course are conflict, named by their paths; nothing is written', async () => {
    svc = await authored();
    const doc = await content();
    const file = fileOf(doc);
    file.modules.push({ id: 'x1', title: 'Stolen', lessons: [{ id: 'l9', title: 'L', minutes: 5, blocks: [] }], assignments: [] });
    const res = await put(file);
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'conflict',
      message: '1 id is used by another course; nothing was written.',
      details: [{ path: 'modules[2].id', message: '"x1" is already the id of a module of another course' }],
    });
    expect(await content()).toEqual(doc);
  });

  it('a file without ids, with an id twice, or naming another course is invalid, with paths', async () => {
    svc = await authored();
    const file = fileOf(await content());
    delete file.modules[0].lessons[1].id;
    file.modules[1].lessons[0].blocks[0].id = 'b1';
    file.course.id = 'c2';
    const res = await put(file);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid');
    expect(res.body.error.details).toEqual([
      { path: 'course.id', message: 'must be "c1", the course being written (or left out)' },
      { path: 'modules[0].lessons[1].id', message: 'is required: content is written by id (GET .../content or courses export gives every id)' },
      { path: 'modules[1].lessons[0].blocks[0].id', message: '"b1" is also modules[0].lessons[0].blocks[0].id' },
    ]);
  });

  it("the body is a strict course file: an unknown field (say the GET answer's contentRevision) is invalid naming it", async () => {
    svc = await authored();
    const doc = await content();
    const res = await svc.call('PUT', '/courses/c1/content', doc);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'contentRevision', message: 'unknown field' }]);
  });

  it("an assignment's category must be one of the setup's: invalid naming the path", async () => {
    svc = await authored();
    const file = fileOf(await content());
    file.modules[0].assignments[0].categoryId = 'nope';
    const res = await put(file);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'modules[0].assignments[0].categoryId', message: '"nope" is not a category of the course\'s gradebook setup (its categories: assignments)' },
    ]);
  });

  it("the gradebook setup travels too: changed parts are named, the store's version goes up by one; a file without one leaves it", async () => {
    svc = await authored();
    const doc = await content();
    const file = fileOf(doc);
    file.gradebookSetup.categories = [
      { id: 'hw', courseId: 'c1', name: 'Homework', position: 0, weight: 100, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
    ];
    file.gradebookSetup.mode = 'weighted';
    file.gradebookSetup.version = 99; // the file's bookkeeping is not compared, nor copied
    file.modules[0].assignments[0].categoryId = 'hw';
    const res = await put(file, {}, 'inst');
    expect(res.body.plan.gradebookSetup).toEqual({ changed: ['mode', 'categories'] });
    expect(res.body.plan.assignments.changed).toEqual([{ id: 'a1', fields: ['categoryId'] }]);
    const setup = (await svc.call('GET', '/courses/c1/gradebook/setup')).body;
    expect(setup).toMatchObject({ mode: 'weighted', version: doc.gradebookSetup.version + 1, updatedBy: 'inst', updatedAt: '2026-11-22T08:30:00.000Z' });
    expect(setup.categories.map((c: { id: string }) => c.id)).toEqual(['hw']);
    const { gradebookSetup: _s, ...withoutSetup } = fileOf(await content());
    expect((await put(withoutSetup)).body.changes).toBe(0);
  });

  it('publishing the course through a file passes the publish gate: not-ready while readiness blocks it, nothing written', async () => {
    svc = await authored();
    const gate = await svc.call('POST', '/courses/c1/publish');
    expect(gate.status).toBe(409);
    const doc = await content();
    const file = fileOf(doc);
    file.course.status = 'published';
    file.course.publishedAt = '2026-11-22T08:30:00Z';
    file.modules[0].lessons[2].title = 'Also this';
    const res = await put(file);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('not-ready');
    expect(res.body.error.details.blocking).toEqual(gate.body.error.details.blocking);
    expect(await content()).toEqual(doc);
  });
});

describe('PUT /courses/{courseId}/content: readiness evidence with a first copy', () => {
  const DESCRIPTION =
    'This course teaches you to read charts and summarise data sets. It is organised in modules, each with lessons and an assignment, and you work through them at your own pace over four weeks.';
  /** A published course whose automatic items pass but 3.1 (no graded work yet): human and ai items need evidence. */
  const PUBLISHED = {
    coursebookCourse: 1,
    course: { id: 'cp', title: 'Published course', description: DESCRIPTION, status: 'published', publishedAt: '2026-11-01T00:00:00.000Z' },
    modules: [
      {
        id: 'pm1',
        title: 'Start',
        objective: 'Summarise a data set with its mean',
        status: 'published',
        lessons: [{ id: 'pl1', title: 'Hi', minutes: 5, blocks: [{ id: 'pb1', type: 'paragraph', text: 'Hello.' }] }],
        assignments: [],
      },
    ],
  };
  const attestation = (itemId: string, note = 'Checked.') => ({
    itemId,
    rubricId: 'course-essentials',
    status: 'attested',
    by: 'usr_src',
    byName: 'Rita Source',
    note,
    at: '2026-10-30T10:00:00+02:00',
  });
  const FINDING = {
    itemId: '2.2',
    verdict: 'met',
    evidence: 'The objective names a measurable action.',
    suggestion: '',
    provenance: null,
    state: 'accepted',
    reviewedBy: 'usr_src',
    reviewedByName: 'Rita Source',
    reviewedAt: '2026-10-30T09:00:00.000Z',
  };
  const READINESS = { attestations: [attestation('3.1', 'No graded work yet.'), attestation('4.1'), attestation('7.1')], findings: [FINDING] };

  it('creates a published course ready as its source: the evidence is written with it, before the gate, as the source recorded it', async () => {
    svc = await authored();
    const bare = await put(PUBLISHED, { expectedRevision: null }, 'admin', 'cp');
    expect(bare.status).toBe(409);
    expect(bare.body.error).toMatchObject({ code: 'not-ready', details: { blocking: ['2.2', '3.1', '4.1', '7.1'] } });
    // A dry run decides as the write would, and writes nothing.
    const dry = await put(PUBLISHED, { expectedRevision: null, dryRun: true, readiness: READINESS }, 'admin', 'cp');
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, created: true, revision: null });
    expect((await svc.call('GET', '/courses/cp')).status).toBe(404);

    const res = await put(PUBLISHED, { expectedRevision: null, readiness: READINESS }, 'admin', 'cp');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ courseId: 'cp', created: true, dryRun: false });
    expect((await svc.call('GET', '/courses/cp')).body).toMatchObject({ status: 'published', publishedAt: '2026-11-01T00:00:00.000Z' });
    const report = (await svc.call('GET', '/courses/cp/readiness')).body;
    expect(report.blocksPublishing).toBe(false);
    const items = Object.fromEntries(report.standards.flatMap((st: Doc) => st.items).map((i: Doc) => [i.itemId, i]));
    expect(items['4.1'].status).toBe('attested');
    // As recorded at the source (the time in UTC), not as the admin who copied it now.
    expect(items['4.1'].attestation).toEqual({
      courseId: 'cp',
      rubricId: 'course-essentials',
      status: 'attested',
      by: 'usr_src',
      byName: 'Rita Source',
      note: 'Checked.',
      at: '2026-10-30T08:00:00.000Z',
    });
    expect(items['2.2'].status).toBe('met');
    expect((await svc.call('GET', '/courses/cp/readiness/findings')).body).toEqual([{ courseId: 'cp', ...FINDING }]);
  });

  it('an unready source is still refused (not-ready), nothing written; evidence for an existing course is invalid naming readiness', async () => {
    svc = await authored();
    const partial = await put(PUBLISHED, { expectedRevision: null, readiness: { attestations: [attestation('4.1')] } }, 'admin', 'cp');
    expect(partial.status).toBe(409);
    expect(partial.body.error).toMatchObject({ code: 'not-ready', details: { blocking: ['2.2', '3.1', '7.1'] } });
    expect((await svc.call('GET', '/courses/cp')).status).toBe(404);

    const file = fileOf(await content());
    const again = await put(file, { readiness: READINESS });
    expect(again.status).toBe(400);
    expect(again.body.error).toEqual({
      code: 'invalid',
      message: 'readiness: travels only with a course\'s first copy: course "c1" exists here already, and each copy keeps its own attestations and findings',
      details: [
        {
          path: 'readiness',
          message: 'travels only with a course\'s first copy: course "c1" exists here already, and each copy keeps its own attestations and findings',
        },
      ],
    });
    // Even an empty section, and in a dry run: the course's own evidence is never replaced.
    expect((await put(file, { readiness: {}, dryRun: true })).status).toBe(400);
    expect((await put(file)).body.changes).toBe(0);
  });

  it("the evidence must fit the target's rubric: its id, its items, ai items for findings, one of each per item; fields as the resources'", async () => {
    svc = await authored();
    const wrong = {
      attestations: [{ ...attestation('4.1'), rubricId: 'other-rubric' }, attestation('9.9'), attestation('7.1'), attestation('7.1')],
      findings: [{ ...FINDING, itemId: '1.3' }],
    };
    const res = await put(PUBLISHED, { expectedRevision: null, readiness: wrong }, 'admin', 'cp');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'readiness.attestations[0].rubricId', message: 'must be the course\'s rubric "course-essentials"' },
      { path: 'readiness.attestations[1].itemId', message: '"9.9" is not an item of rubric "course-essentials"' },
      { path: 'readiness.attestations[3].itemId', message: 'a second attestation of item "7.1"' },
      { path: 'readiness.findings[0].itemId', message: 'must name an ai item (item 1.3 is human)' },
    ]);
    const shape = await put(
      PUBLISHED,
      {
        expectedRevision: null,
        readiness: { attestations: [{ ...attestation('4.1'), at: 'yesterday', extra: 1 }], findings: [{ ...FINDING, state: 'maybe' }] },
      },
      'admin',
      'cp',
    );
    expect(shape.status).toBe(400);
    expect(shape.body.error.details.map((p: Doc) => p.path)).toEqual([
      'readiness.attestations[0].at',
      'readiness.attestations[0].extra',
      'readiness.findings[0].state',
    ]);
    expect((await svc.call('GET', '/courses/cp')).status).toBe(404);
  });
});

describe('sync marks', () => {
  it('GET answers null until a mark is written; PUT records both revisions, the base file and the time', async () => {
    svc = await authored();
    const remote = 'https://courses.example.edu';
    const q = `/courses/c1/sync-mark?remote=${encodeURIComponent(remote)}`;
    expect((await svc.call('GET', q)).body).toEqual({ courseId: 'c1', remote, mark: null });
    const base = fileOf(await content());
    const res = await svc.call('PUT', '/courses/c1/sync-mark', { remote, remoteRevision: 7, localRevision: 12, base }, 'inst');
    expect(res.status).toBe(200);
    const mark = { courseId: 'c1', remote, remoteRevision: 7, localRevision: 12, base, syncedAt: '2026-11-22T08:30:00.000Z' };
    expect(res.body).toEqual({ courseId: 'c1', remote, mark });
    expect((await svc.call('GET', q)).body).toEqual({ courseId: 'c1', remote, mark });
    expect((await svc.call('GET', `/courses/c1/sync-mark?remote=elsewhere`)).body.mark).toBeNull();
  });

  it('a mark needs a remote and a sound base file; students cannot read or write marks', async () => {
    svc = await authored();
    expect((await svc.call('GET', '/courses/c1/sync-mark')).body.error.details).toEqual([{ path: 'remote', message: 'is required' }]);
    const bad = await svc.call('PUT', '/courses/c1/sync-mark', { remote: 'r', remoteRevision: -1, localRevision: 1, base: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((p: { path: string }) => p.path)).toEqual(['remoteRevision', 'base.coursebookCourse', 'base.course']);
    expect((await svc.call('GET', '/courses/c1/sync-mark?remote=r', undefined, 'stu1')).status).toBe(403);
  });
});
