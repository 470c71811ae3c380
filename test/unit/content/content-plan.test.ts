/**
 * The content planner (#14): the plan that makes one course file equal to another by id,
 * hand-worked cases and properties; the student-work rule; the file's id problems.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentFileProblems, planContent, planSize } from '../../../src/domain/content/content-plan.js';
import { lostWorkMessage, studentWorkLost } from '../../../src/domain/content/student-work.js';
import { defaultGradebookSetup } from '../../../src/domain/grading/index.js';
import { CourseFile, type CourseFileValue } from '../../../src/schemas/course-file.js';

/** A course file from a compact description: modules of lessons (each with blocks) and assignments. */
function file(modules: { id: string; lessons?: { id: string; blocks?: string[] }[]; assignments?: string[] }[], title = 'Course'): CourseFileValue {
  return CourseFile.parse({
    coursebookCourse: 1,
    course: { id: 'c', title },
    modules: modules.map((m) => ({
      id: m.id,
      title: `Module ${m.id}`,
      lessons: (m.lessons ?? []).map((l) => ({
        id: l.id,
        title: `Lesson ${l.id}`,
        minutes: 10,
        blocks: (l.blocks ?? []).map((b) => ({ id: b, type: 'paragraph', text: `Text of ${b}` })),
      })),
      assignments: (m.assignments ?? []).map((a) => ({ id: a, title: `Assignment ${a}`, points: 10 })),
    })),
  });
}

const EMPTY = { added: [], changed: [], moved: [], removed: [] };

describe('planContent', () => {
  it('two equal files: nothing to do', () => {
    const f = file([{ id: 'm1', lessons: [{ id: 'l1', blocks: ['b1', 'b2'] }], assignments: ['a1'] }]);
    const plan = planContent(f, structuredClone(f));
    expect(plan).toEqual({
      course: { created: false, changed: [] },
      modules: EMPTY,
      lessons: EMPTY,
      assignments: EMPTY,
      blocks: EMPTY,
      gradebookSetup: { changed: [] },
    });
    expect(planSize(plan)).toBe(0);
  });

  it('no current course: the course is created and everything is added, in reading order', () => {
    const plan = planContent(null, file([{ id: 'm1', lessons: [{ id: 'l1', blocks: ['b1'] }], assignments: ['a1'] }, { id: 'm2' }]));
    expect(plan.course).toEqual({ created: true, changed: [] });
    expect(plan.modules.added).toEqual(['m1', 'm2']);
    expect(plan.lessons.added).toEqual(['l1']);
    expect(plan.blocks.added).toEqual(['b1']);
    expect(plan.assignments.added).toEqual(['a1']);
    expect(planSize(plan)).toBe(6);
  });

  it('names changed fields; a moved and changed item is in both lists', () => {
    const before = file([{ id: 'm1', lessons: [{ id: 'l1' }, { id: 'l2' }] }]);
    const after = structuredClone(before);
    after.course.title = 'Renamed';
    after.course.objectives = ['One'];
    const [l1, l2] = after.modules[0]!.lessons;
    l1!.minutes = 15;
    l2!.title = 'Second';
    l2!.status = 'published';
    after.modules[0]!.lessons = [l2!, l1!];
    const plan = planContent(before, after);
    expect(plan.course.changed).toEqual(['title', 'objectives']);
    expect(plan.lessons).toEqual({
      added: [],
      changed: [
        { id: 'l2', fields: ['title', 'status'] },
        { id: 'l1', fields: ['minutes'] },
      ],
      moved: ['l2'],
      removed: [],
    });
    expect(planSize(plan)).toBe(3);
  });

  it.each([
    ['one to the end', ['a', 'b', 'c', 'd'], ['b', 'c', 'd', 'a'], ['a']],
    ['one to the front', ['a', 'b', 'c', 'd'], ['d', 'a', 'b', 'c'], ['d']],
    ['a swap', ['a', 'b', 'c', 'd'], ['a', 'c', 'b', 'd'], ['c']],
    ['reversed (one stays, the others move around it)', ['a', 'b', 'c', 'd'], ['d', 'c', 'b', 'a'], ['d', 'c', 'b']],
    ['one deleted', ['a', 'b', 'c', 'd'], ['a', 'c', 'd'], []],
    ['one inserted', ['a', 'b', 'c'], ['a', 'x', 'b', 'c'], []],
  ])('reports the fewest moves: %s', (_label, from, to, moved) => {
    const plan = planContent(file(from.map((id) => ({ id }))), file(to.map((id) => ({ id }))));
    expect(plan.modules.moved).toEqual(moved);
  });

  it('an item under another parent has moved, wherever it lands', () => {
    const before = file([
      { id: 'm1', lessons: [{ id: 'l1', blocks: ['b1', 'b2'] }] },
      { id: 'm2', lessons: [{ id: 'l2', blocks: ['b3'] }] },
    ]);
    const after = file([
      { id: 'm1', lessons: [{ id: 'l1', blocks: ['b1'] }] },
      { id: 'm2', lessons: [{ id: 'l2', blocks: ['b3', 'b2'] }, { id: 'l1x' }] },
    ]);
    const plan = planContent(before, after);
    expect(plan.blocks).toEqual({ added: [], changed: [], moved: ['b2'], removed: [] });
    expect(plan.lessons.added).toEqual(['l1x']);
  });

  it('removing a module lists its lessons, blocks and assignments as removed too', () => {
    const plan = planContent(file([{ id: 'm1', lessons: [{ id: 'l1', blocks: ['b1'] }], assignments: ['a1'] }, { id: 'm2' }]), file([{ id: 'm2' }]));
    expect(plan.modules.removed).toEqual(['m1']);
    expect(plan.lessons.removed).toEqual(['l1']);
    expect(plan.blocks.removed).toEqual(['b1']);
    expect(plan.assignments.removed).toEqual(['a1']);
    expect(plan.modules.moved).toEqual([]);
  });

  it('blocks compare content and review state; the plain human defaults equal their absence', () => {
    const before = file([{ id: 'm1', lessons: [{ id: 'l1', blocks: ['b1', 'b2'] }] }]);
    const after = structuredClone(before);
    const [b1, b2] = after.modules[0]!.lessons[0]!.blocks as Record<string, unknown>[];
    Object.assign(b1!, { origin: 'human', aiState: null, provenance: null, previous: null });
    Object.assign(b2!, { aiState: 'accepted', text: 'New text' });
    expect(planContent(before, after).blocks.changed).toEqual([{ id: 'b2', fields: ['text', 'aiState'] }]);
  });

  it("the gradebook setup compares everything but each store's bookkeeping; a file without one leaves it", () => {
    const before = { ...file([]), gradebookSetup: defaultGradebookSetup('c', '2026-01-01T00:00:00.000Z', 'someone') };
    const same = { ...before, gradebookSetup: { ...before.gradebookSetup, version: 7, updatedBy: 'other', updatedAt: '2026-02-01T00:00:00.000Z' } };
    expect(planContent(before, same).gradebookSetup.changed).toEqual([]);
    const changed = { ...before, gradebookSetup: { ...before.gradebookSetup, mode: 'weighted' as const } };
    expect(planContent(before, changed).gradebookSetup.changed).toEqual(['mode']);
    const { gradebookSetup: _s, ...without } = changed;
    expect(planContent(before, without).gradebookSetup.changed).toEqual([]);
  });
});

const idList = (prefix: string, max: number) => fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: max }).map((ns) => ns.map((n) => `${prefix}${n}`));

describe('planContent properties', () => {
  it('a file against itself plans nothing; against nothing, everything is added', () => {
    fc.assert(
      fc.property(idList('m', 6), idList('l', 8), (modules, lessons) => {
        const f = file(modules.map((id, i) => ({ id, lessons: lessons.filter((_, k) => k % modules.length === i).map((l) => ({ id: l })) })));
        expect(planSize(planContent(f, structuredClone(f)))).toBe(0);
        const fresh = planContent(null, f);
        expect(fresh.modules.added).toEqual(modules);
        expect(fresh.lessons.added.length).toBe(modules.length === 0 ? 0 : lessons.length);
      }),
    );
  });

  it('a reordering moves exactly what lies off one longest kept order: n minus the longest increasing run', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }).chain((n) => fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n })),
        (order) => {
          const ids = order.map((_, i) => `m${i}`);
          const plan = planContent(file(ids.map((id) => ({ id }))), file(order.map((i) => ({ id: `m${i}` }))));
          // The longest increasing subsequence, by patience sorting.
          const tails: number[] = [];
          for (const v of order) {
            let lo = 0;
            while (lo < tails.length && tails[lo]! < v) lo++;
            tails[lo] = v;
          }
          expect(plan.modules.moved.length).toBe(order.length - tails.length);
          expect(plan.modules.added).toEqual([]);
          expect(plan.modules.removed).toEqual([]);
        },
      ),
    );
  });

  it('added and removed are exactly the set differences of ids', () => {
    fc.assert(
      fc.property(idList('m', 8), idList('m', 8), (a, b) => {
        const plan = planContent(file(a.map((id) => ({ id }))), file(b.map((id) => ({ id }))));
        expect(plan.modules.added).toEqual(b.filter((id) => !a.includes(id)));
        expect(plan.modules.removed).toEqual(a.filter((id) => !b.includes(id)));
      }),
    );
  });
});

describe('contentFileProblems', () => {
  it('every item needs an id, unique within its kind (blocks and instructions share one), and the course id must match', () => {
    const f = CourseFile.parse({
      coursebookCourse: 1,
      course: { id: 'other', title: 'T' },
      modules: [
        {
          id: 'm1',
          lessons: [
            { id: 'l1', title: 'L', minutes: 5, blocks: [{ id: 'b1', type: 'divider' }] },
            { title: 'No id', minutes: 5 },
          ],
          assignments: [{ id: 'l1', title: 'Same id as a lesson: fine', points: 1, instructions: [{ id: 'b1', type: 'divider' }] }],
          title: 'M',
        },
        { id: 'm1', title: 'Again' },
      ],
    });
    expect(contentFileProblems(f, 'c')).toEqual([
      { path: 'course.id', message: 'must be "c", the course being written (or left out)' },
      { path: 'modules[0].lessons[1].id', message: 'is required: content is written by id (GET .../content or courses export gives every id)' },
      { path: 'modules[0].assignments[0].instructions[0].id', message: '"b1" is also modules[0].lessons[0].blocks[0].id' },
      { path: 'modules[1].id', message: '"m1" is also modules[0].id' },
    ]);
  });
});

describe('studentWorkLost', () => {
  const standing = (id: string, published = true, modulePublished = true) => ({ id, title: `T${id}`, moduleId: 'm', published, modulePublished });

  it('only assignments with submissions count: deleted, back to draft, or in a module back to draft', () => {
    const before = [standing('a'), standing('b'), standing('c'), standing('d'), standing('e', false, false)];
    const after = new Map([
      ['b', standing('b', false)],
      ['c', standing('c', true, false)],
      ['d', standing('d')],
      ['e', standing('e', false, false)],
    ]);
    const subs = new Map([
      ['a', 2],
      ['b', 1],
      ['c', 3],
      ['e', 4],
    ]);
    const lost = studentWorkLost(before, after, subs);
    expect(lost).toEqual([
      { id: 'a', title: 'Ta', submissions: 2, reason: 'deleted' },
      { id: 'b', title: 'Tb', submissions: 1, reason: 'back to draft' },
      { id: 'c', title: 'Tc', submissions: 3, reason: 'module back to draft' },
    ]);
    expect(lostWorkMessage(lost)).toBe(
      'Student work would be lost: a ("Ta", 2 submissions) would be deleted; b ("Tb", 1 submission) would go back to draft; c ("Tc", 3 submissions) would be hidden in a draft module. Nothing was changed.',
    );
    expect(lostWorkMessage([lost[1]!])).toBe('Assignment b has 1 submission; it cannot go back to draft.');
  });

  it('nothing is lost when nothing with submissions goes or hides', () => {
    expect(studentWorkLost([standing('a')], new Map([['a', standing('a')]]), new Map([['a', 5]]))).toEqual([]);
    expect(studentWorkLost([standing('a')], new Map(), new Map())).toEqual([]);
  });
});
