/**
 * A course's content read and written whole, by id, at a revision (docs/authoring.md):
 * `GET|PUT /courses/{courseId}/content`, which push and pull use on both sides. The write
 * makes the stored course equal to the file (creating, changing, moving and deleting
 * modules, lessons, assignments and blocks by id) in one transaction, after the rules every
 * other path applies: ids free or already this course's, student work kept, categories
 * known, the setup sound, the publish gate. A dry run does the same and rolls it back, so
 * it fails exactly when the write would.
 */
import { COURSE_FIELDS, canonical, comparableBlock, contentFileProblems, planContent, planSize } from '../domain/content/content-plan.js';
import type { AssignmentStanding } from '../domain/content/student-work.js';
import { nextCount } from '../domain/counters.js';
import { categoryProblems } from '../domain/grading/category-rules.js';
import { firstCategoryId } from '../domain/grading/defaults.js';
import { setupProblems } from '../domain/grading/setup-soundness.js';
import { AppError, invalid, type Problem } from '../errors.js';
import type { Clock } from '../runtime/clock.js';
import type { Ids } from '../runtime/ids.js';
import { eachInOrder } from '../runtime/in-order.js';
import type { AssignmentRowValue, LessonValue } from '../schemas/content.js';
import type { ContentWriteResultValue, ContentWriteValue } from '../schemas/course-content.js';
import type { CourseFileValue } from '../schemas/course-file.js';
import type { ModuleValue } from '../schemas/courses.js';
import { assertStudentWorkKept } from './content-lifecycle.js';
import { importCourseFile, readCourseFile } from './course-file.js';
import { changeCourse, getCourse } from './courses.js';
import type { Store } from './db.js';
import { getGradebookSetup, putGradebookSetup } from './gradebook-setups.js';
import { assertCoursePublishable } from './readiness.js';
import { ASSIGNMENTS, BLOCKS, type BlockRecord, insertRecord, LESSONS, MODULES, type Row, type Table, updateRecord } from './tables.js';

/** The course's content revision, or null when there is no such course. */
export async function contentRevision(store: Store, courseId: string): Promise<number | null> {
  const row = (await store.get('SELECT content_revision AS r FROM courses WHERE id = ?', courseId)) as { r: number } | undefined;
  return row ? row.r : null;
}

/** GET .../content: the course file with every id, and its revision. */
export async function readCourseContent(store: Store, courseId: string) {
  const file = await readCourseFile(store, courseId);
  return { ...file, contentRevision: (await contentRevision(store, courseId))! };
}

function checkExpectedRevision(courseId: string, current: number | null, expected: number | null | undefined): void {
  if (expected === undefined || expected === current) return;
  const details = { courseId, expectedRevision: expected, currentRevision: current };
  if (current === null)
    throw new AppError(
      'conflict',
      `Course ${JSON.stringify(courseId)} does not exist, so it is not at revision ${expected}; send expectedRevision null to create it.`,
      details,
    );
  if (expected === null)
    throw new AppError(
      'conflict',
      `Course ${JSON.stringify(courseId)} already exists (revision ${current}); send expectedRevision ${current} to change it.`,
      details,
    );
  throw new AppError(
    'conflict',
    `Course ${JSON.stringify(courseId)} is at revision ${current}, not ${expected}: it changed since that revision was read. Read it again and reapply your changes, or leave expectedRevision out to overwrite them.`,
    details,
  );
}

/**
 * PUT .../content: make the stored course equal to the file (or, for a dry run, say how).
 * A course that does not exist is created with the file's ids.
 */
export async function writeCourseContent(
  store: Store,
  at: { clock: Clock; ids: Ids },
  courseId: string,
  input: ContentWriteValue,
  actorId: string,
): Promise<ContentWriteResultValue> {
  const { expectedRevision, dryRun, readiness, ...fields } = input;
  const file: CourseFileValue = { ...fields, course: { ...fields.course, id: courseId } };
  const problems = contentFileProblems(fields, courseId);
  if (problems.length > 0) throw invalid(problems, `The course file has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written.`);
  const write = (on: Store) =>
    on.tx(async (tx) => {
      const previous = await contentRevision(tx, courseId);
      checkExpectedRevision(courseId, previous, expectedRevision);
      if (readiness !== undefined && previous !== null)
        throw invalid([
          {
            path: 'readiness',
            message: `travels only with a course's first copy: course ${JSON.stringify(courseId)} exists here already, and each copy keeps its own attestations and findings`,
          },
        ]);
      const current = previous === null ? null : ((await readCourseFile(tx, courseId)) as CourseFileValue);
      const plan = planContent(current, file);
      const changes = planSize(plan);
      if (changes > 0) {
        await assertIdsFree(tx, courseId, file);
        await assertCategoriesKnown(tx, courseId, file);
        if (current === null) await importCourseFile(tx, at, file, actorId, readiness ? { evidence: readiness } : {});
        else await applyToCourse(tx, at.clock.now(), courseId, current, file, plan.gradebookSetup.changed.length > 0, actorId);
      }
      return { courseId, dryRun, created: current === null, previousRevision: previous, revision: await contentRevision(tx, courseId), changes, plan };
    });
  if (!dryRun) return write(store);
  const rehearsed = await store.rehearse(write);
  return { ...rehearsed, revision: rehearsed.previousRevision };
}

// --- checks ------------------------------------------------------------------------------

/** Every id the file gives is free or already this course's (ids are unique across the store). */
async function assertIdsFree(store: Store, courseId: string, file: CourseFileValue): Promise<void> {
  const owner = {
    module: 'SELECT course_id AS c FROM modules WHERE id = ?',
    lesson: 'SELECT course_id AS c FROM lessons WHERE id = ?',
    assignment: 'SELECT course_id AS c FROM assignments WHERE id = ?',
    block:
      'SELECT COALESCE(l.course_id, a.course_id) AS c FROM blocks b LEFT JOIN lessons l ON l.id = b.lesson_id LEFT JOIN assignments a ON a.id = b.assignment_id WHERE b.id = ?',
  };
  const wanted: { kind: keyof typeof owner; id: string | undefined; path: string }[] = [];
  file.modules.forEach((m, mi) => {
    wanted.push({ kind: 'module', id: m.id, path: `modules[${mi}]` });
    m.lessons.forEach((l, li) => {
      wanted.push({ kind: 'lesson', id: l.id, path: `modules[${mi}].lessons[${li}]` });
      l.blocks.forEach((b, bi) => wanted.push({ kind: 'block', id: b.id, path: `modules[${mi}].lessons[${li}].blocks[${bi}]` }));
    });
    m.assignments.forEach((a, ai) => {
      wanted.push({ kind: 'assignment', id: a.id, path: `modules[${mi}].assignments[${ai}]` });
      a.instructions.forEach((b, bi) => wanted.push({ kind: 'block', id: b.id, path: `modules[${mi}].assignments[${ai}].instructions[${bi}]` }));
    });
  });
  const taken: Problem[] = [];
  for (const { kind, id, path } of wanted) {
    if (id === undefined) continue;
    const row = await store.get<{ c: string }>(owner[kind], id);
    if (row && row.c !== courseId) taken.push({ path: `${path}.id`, message: `${JSON.stringify(id)} is already the id of a ${kind} of another course` });
  }
  if (taken.length > 0)
    throw new AppError('conflict', `${taken.length} id${taken.length === 1 ? ' is' : 's are'} used by another course; nothing was written.`, taken);
}

/** Assignments name categories of the file's setup (or, without one, the stored setup). */
async function assertCategoriesKnown(store: Store, courseId: string, file: CourseFileValue): Promise<void> {
  const categories = file.gradebookSetup?.categories ?? (await getGradebookSetup(store, courseId))?.categories ?? [];
  const problems = file.modules.flatMap((m, mi) =>
    m.assignments.flatMap((a, ai) => categoryProblems(categories, a.categoryId, `modules[${mi}].assignments[${ai}].categoryId`)),
  );
  if (problems.length > 0) throw invalid(problems);
}

// --- applying ----------------------------------------------------------------------------

/** Write `value` when it differs from what the table holds under its key (or is new). */
async function put<V>(table: Table<V>, store: Store, stored: V | undefined, value: V): Promise<void> {
  if (stored === undefined) await insertRecord(store, table, value);
  // Compared as values (key order aside), so a row written in another key order is not a change.
  else if (canonical(stored) !== canonical(value)) await updateRecord(store, table, value);
}

const rowsOf = async <V>(store: Store, table: Table<V>, sql: string, ...params: string[]): Promise<Map<string, V>> =>
  new Map(((await store.all(sql, ...params)) as Row[]).map((r) => [String(r.id), table.fromRow(r)]));

async function applyToCourse(
  store: Store,
  now: string,
  courseId: string,
  current: CourseFileValue,
  file: CourseFileValue,
  setupChanged: boolean,
  actorId: string,
): Promise<void> {
  // Student work first: nothing is written when an assignment with submissions would go.
  const placement = new Map<string, AssignmentStanding>();
  for (const m of file.modules)
    for (const a of m.assignments)
      placement.set(a.id!, { id: a.id!, title: a.title, moduleId: m.id!, published: a.status === 'published', modulePublished: m.status === 'published' });
  await assertStudentWorkKept(store, courseId, () => placement);

  const course = (await getCourse(store, courseId))!;
  const courseFields = Object.fromEntries(COURSE_FIELDS.map((k) => [k, file.course[k]]));
  if (canonical(courseFields) !== canonical(Object.fromEntries(COURSE_FIELDS.map((k) => [k, current.course[k]]))))
    await changeCourse(store, course, { ...course, ...courseFields, updatedAt: now });

  if (setupChanged && file.gradebookSetup) {
    const stored = (await getGradebookSetup(store, courseId))!;
    const setup = {
      ...file.gradebookSetup,
      courseId,
      categories: file.gradebookSetup.categories.map((c) => ({ ...c, courseId })),
      version: nextCount(stored.version, 'The setup version'),
      updatedBy: actorId,
      updatedAt: now,
    };
    const problems = setupProblems(setup, courseId).map((p) => ({ ...p, path: `gradebookSetup.${p.path}` }));
    if (problems.length > 0) throw invalid(problems);
    await putGradebookSetup(store, setup);
  }

  const firstCategory = firstCategoryId((await getGradebookSetup(store, courseId))?.categories ?? []);
  const modules = await rowsOf(store, MODULES, 'SELECT * FROM modules WHERE course_id = ?', courseId);
  const lessons = await rowsOf(store, LESSONS, 'SELECT * FROM lessons WHERE course_id = ?', courseId);
  const assignments = await rowsOf(store, ASSIGNMENTS, 'SELECT * FROM assignments WHERE course_id = ?', courseId);
  const blocks = await rowsOf(
    store,
    BLOCKS,
    `SELECT b.* FROM blocks b LEFT JOIN lessons l ON l.id = b.lesson_id LEFT JOIN assignments a ON a.id = b.assignment_id
     WHERE l.course_id = ? OR a.course_id = ?`,
    courseId,
    courseId,
  );
  const keep = { modules: new Set<string>(), lessons: new Set<string>(), assignments: new Set<string>(), blocks: new Set<string>() };

  const putBlock = async (b: Record<string, unknown> & { id?: string }, where: Pick<BlockRecord, 'lessonId' | 'assignmentId' | 'position'>) => {
    const id = b.id!;
    keep.blocks.add(id);
    const stored = blocks.get(id);
    const body = comparableBlock(b);
    const sameBody = stored !== undefined && canonical(comparableBlock(blockBody(stored))) === canonical(body);
    const record = { ...body, id, ...where, updatedAt: sameBody ? stored.updatedAt : now } as BlockRecord;
    await put(BLOCKS, store, stored, record);
  };

  // Parents before children (new modules before their lessons), deletions last, so each
  // kept item is in its new place before anything it used to sit in is deleted.
  await eachInOrder(file.modules, async (m, position) => {
    const record: ModuleValue = { id: m.id!, courseId, title: m.title, objective: m.objective, position, status: m.status };
    keep.modules.add(record.id);
    await put(MODULES, store, modules.get(record.id), record);
  });
  await eachInOrder(file.modules, async (m) => {
    await eachInOrder(m.lessons, async (l, position) => {
      const record: LessonValue = {
        id: l.id!,
        moduleId: m.id!,
        courseId,
        title: l.title,
        minutes: l.minutes,
        position,
        status: l.status,
        publishedAt: l.publishedAt,
      };
      keep.lessons.add(record.id);
      await put(LESSONS, store, lessons.get(record.id), record);
    });
    await eachInOrder(m.assignments, async (a, position) => {
      const { instructions: _i, id, categoryId, ...rest } = a;
      // Without a categoryId an assignment goes into the setup's first category, as on every creation path.
      const record: AssignmentRowValue = {
        ...rest,
        categoryId: categoryId === undefined ? firstCategory : categoryId,
        id: id!,
        moduleId: m.id!,
        courseId,
        position,
      };
      keep.assignments.add(record.id);
      await put(ASSIGNMENTS, store, assignments.get(record.id), record);
    });
  });
  file.modules.forEach((m) => {
    for (const l of m.lessons) l.blocks.forEach((b, position) => putBlock(b, { lessonId: l.id!, assignmentId: null, position }));
    for (const a of m.assignments) a.instructions.forEach((b, position) => putBlock(b, { lessonId: null, assignmentId: a.id!, position }));
  });
  for (const id of blocks.keys()) if (!keep.blocks.has(id)) await store.run('DELETE FROM blocks WHERE id = ?', id);
  for (const id of assignments.keys()) if (!keep.assignments.has(id)) await store.run('DELETE FROM assignments WHERE id = ?', id);
  for (const id of lessons.keys()) if (!keep.lessons.has(id)) await store.run('DELETE FROM lessons WHERE id = ?', id);
  for (const id of modules.keys()) if (!keep.modules.has(id)) await store.run('DELETE FROM modules WHERE id = ?', id);

  // The publish gate: a write that publishes the course must pass it, as POST .../publish does.
  if (file.course.status === 'published' && current.course.status !== 'published') await assertCoursePublishable(store, courseId, now);
}

/** What a course file says of a stored block: content and review state, without where it sits or when it changed. */
function blockBody(b: BlockRecord): Record<string, unknown> {
  const { lessonId: _l, assignmentId: _a, position: _p, updatedAt: _u, ...rest } = b;
  return rest;
}
