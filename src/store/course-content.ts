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
import type { AssignmentRowValue, LessonValue, ModuleValue } from '../schemas/content.js';
import type { ContentWriteResultValue, ContentWriteValue } from '../schemas/course-content.js';
import type { CourseFileValue } from '../schemas/course-file.js';
import { assertStudentWorkKept } from './content-lifecycle.js';
import { importCourseFile, readCourseFile } from './course-file.js';
import { changeCourse, getCourse } from './courses.js';
import type { Store } from './db.js';
import { getGradebookSetup, putGradebookSetup } from './gradebook-setups.js';
import { assertCoursePublishable } from './readiness.js';
import { ASSIGNMENTS, BLOCKS, type BlockRecord, insertRecord, LESSONS, MODULES, type Row, type Table, updateRecord } from './tables.js';

/** The course's content revision, or null when there is no such course. */
export function contentRevision(store: Store, courseId: string): number | null {
  const row = store.stmt('SELECT content_revision AS r FROM courses WHERE id = ?').get(courseId) as { r: number } | undefined;
  return row ? row.r : null;
}

/** GET .../content: the course file with every id, and its revision. */
export function readCourseContent(store: Store, courseId: string) {
  const file = readCourseFile(store, courseId);
  return { ...file, contentRevision: contentRevision(store, courseId)! };
}

const ROLLBACK = Symbol('dry run');

/** Run `fn` in a transaction (a savepoint when nested) and roll it back: a dry run meets every check the write would. */
function rehearse<T>(store: Store, fn: () => T): T {
  let result: T | undefined;
  const run = store.db.transaction(() => {
    result = fn();
    throw ROLLBACK;
  });
  try {
    if (store.db.inTransaction) run();
    else run.immediate();
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
  return result!;
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
export function writeCourseContent(
  store: Store,
  at: { clock: Clock; ids: Ids },
  courseId: string,
  input: ContentWriteValue,
  actorId: string,
): ContentWriteResultValue {
  const { expectedRevision, dryRun, ...fields } = input;
  const file: CourseFileValue = { ...fields, course: { ...fields.course, id: courseId } };
  const problems = contentFileProblems(fields, courseId);
  if (problems.length > 0) throw invalid(problems, `The course file has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written.`);
  const write = () =>
    store.tx(() => {
      const previous = contentRevision(store, courseId);
      checkExpectedRevision(courseId, previous, expectedRevision);
      const current = previous === null ? null : (readCourseFile(store, courseId) as CourseFileValue);
      const plan = planContent(current, file);
      const changes = planSize(plan);
      if (changes > 0) {
        assertIdsFree(store, courseId, file);
        assertCategoriesKnown(store, courseId, file);
        if (current === null) importCourseFile(store, at, file, actorId);
        else applyToCourse(store, at.clock.now(), courseId, current, file, plan.gradebookSetup.changed.length > 0, actorId);
      }
      return { courseId, dryRun, created: current === null, previousRevision: previous, revision: contentRevision(store, courseId), changes, plan };
    });
  if (!dryRun) return write();
  const rehearsed = rehearse(store, write);
  return { ...rehearsed, revision: rehearsed.previousRevision };
}

// --- checks ------------------------------------------------------------------------------

/** Every id the file gives is free or already this course's (ids are unique across the store). */
function assertIdsFree(store: Store, courseId: string, file: CourseFileValue): void {
  const owner = {
    module: store.stmt('SELECT course_id AS c FROM modules WHERE id = ?'),
    lesson: store.stmt('SELECT course_id AS c FROM lessons WHERE id = ?'),
    assignment: store.stmt('SELECT course_id AS c FROM assignments WHERE id = ?'),
    block: store.stmt(
      'SELECT COALESCE(l.course_id, a.course_id) AS c FROM blocks b LEFT JOIN lessons l ON l.id = b.lesson_id LEFT JOIN assignments a ON a.id = b.assignment_id WHERE b.id = ?',
    ),
  };
  const taken: Problem[] = [];
  const check = (kind: keyof typeof owner, id: string | undefined, path: string) => {
    const row = owner[kind].get(id) as { c: string } | undefined;
    if (row && row.c !== courseId) taken.push({ path: `${path}.id`, message: `${JSON.stringify(id)} is already the id of a ${kind} of another course` });
  };
  file.modules.forEach((m, mi) => {
    check('module', m.id, `modules[${mi}]`);
    m.lessons.forEach((l, li) => {
      check('lesson', l.id, `modules[${mi}].lessons[${li}]`);
      l.blocks.forEach((b, bi) => check('block', b.id, `modules[${mi}].lessons[${li}].blocks[${bi}]`));
    });
    m.assignments.forEach((a, ai) => {
      check('assignment', a.id, `modules[${mi}].assignments[${ai}]`);
      a.instructions.forEach((b, bi) => check('block', b.id, `modules[${mi}].assignments[${ai}].instructions[${bi}]`));
    });
  });
  if (taken.length > 0)
    throw new AppError('conflict', `${taken.length} id${taken.length === 1 ? ' is' : 's are'} used by another course; nothing was written.`, taken);
}

/** Assignments name categories of the file's setup (or, without one, the stored setup). */
function assertCategoriesKnown(store: Store, courseId: string, file: CourseFileValue): void {
  const categories = file.gradebookSetup?.categories ?? getGradebookSetup(store, courseId)?.categories ?? [];
  const problems = file.modules.flatMap((m, mi) =>
    m.assignments.flatMap((a, ai) => categoryProblems(categories, a.categoryId, `modules[${mi}].assignments[${ai}].categoryId`)),
  );
  if (problems.length > 0) throw invalid(problems);
}

// --- applying ----------------------------------------------------------------------------

/** Write `value` when it differs from what the table holds under its key (or is new). */
function put<V>(table: Table<V>, store: Store, stored: V | undefined, value: V): void {
  if (stored === undefined) insertRecord(store, table, value);
  // Compared as values (key order aside), so a row written in another key order is not a change.
  else if (canonical(stored) !== canonical(value)) updateRecord(store, table, value);
}

const rowsOf = <V>(store: Store, table: Table<V>, sql: string, ...params: string[]): Map<string, V> =>
  new Map((store.stmt(sql).all(...params) as Row[]).map((r) => [String(r.id), table.fromRow(r)]));

function applyToCourse(
  store: Store,
  now: string,
  courseId: string,
  current: CourseFileValue,
  file: CourseFileValue,
  setupChanged: boolean,
  actorId: string,
): void {
  // Student work first: nothing is written when an assignment with submissions would go.
  const placement = new Map<string, AssignmentStanding>();
  for (const m of file.modules)
    for (const a of m.assignments)
      placement.set(a.id!, { id: a.id!, title: a.title, moduleId: m.id!, published: a.status === 'published', modulePublished: m.status === 'published' });
  assertStudentWorkKept(store, courseId, () => placement);

  const course = getCourse(store, courseId)!;
  const courseFields = Object.fromEntries(COURSE_FIELDS.map((k) => [k, file.course[k]]));
  if (canonical(courseFields) !== canonical(Object.fromEntries(COURSE_FIELDS.map((k) => [k, current.course[k]]))))
    changeCourse(store, course, { ...course, ...courseFields, updatedAt: now });

  if (setupChanged && file.gradebookSetup) {
    const stored = getGradebookSetup(store, courseId)!;
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
    putGradebookSetup(store, setup);
  }

  const firstCategory = firstCategoryId(getGradebookSetup(store, courseId)?.categories ?? []);
  const modules = rowsOf(store, MODULES, 'SELECT * FROM modules WHERE course_id = ?', courseId);
  const lessons = rowsOf(store, LESSONS, 'SELECT * FROM lessons WHERE course_id = ?', courseId);
  const assignments = rowsOf(store, ASSIGNMENTS, 'SELECT * FROM assignments WHERE course_id = ?', courseId);
  const blocks = rowsOf(
    store,
    BLOCKS,
    `SELECT b.* FROM blocks b LEFT JOIN lessons l ON l.id = b.lesson_id LEFT JOIN assignments a ON a.id = b.assignment_id
     WHERE l.course_id = ? OR a.course_id = ?`,
    courseId,
    courseId,
  );
  const keep = { modules: new Set<string>(), lessons: new Set<string>(), assignments: new Set<string>(), blocks: new Set<string>() };

  const putBlock = (b: Record<string, unknown> & { id?: string }, where: Pick<BlockRecord, 'lessonId' | 'assignmentId' | 'position'>) => {
    const id = b.id!;
    keep.blocks.add(id);
    const stored = blocks.get(id);
    const body = comparableBlock(b);
    const sameBody = stored !== undefined && canonical(comparableBlock(blockBody(stored))) === canonical(body);
    const record = { ...body, id, ...where, updatedAt: sameBody ? stored.updatedAt : now } as BlockRecord;
    put(BLOCKS, store, stored, record);
  };

  // Parents before children (new modules before their lessons), deletions last, so each
  // kept item is in its new place before anything it used to sit in is deleted.
  file.modules.forEach((m, position) => {
    const record: ModuleValue = { id: m.id!, courseId, title: m.title, objective: m.objective, position, status: m.status };
    keep.modules.add(record.id);
    put(MODULES, store, modules.get(record.id), record);
  });
  file.modules.forEach((m) => {
    m.lessons.forEach((l, position) => {
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
      put(LESSONS, store, lessons.get(record.id), record);
    });
    m.assignments.forEach((a, position) => {
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
      put(ASSIGNMENTS, store, assignments.get(record.id), record);
    });
  });
  file.modules.forEach((m) => {
    for (const l of m.lessons) l.blocks.forEach((b, position) => putBlock(b, { lessonId: l.id!, assignmentId: null, position }));
    for (const a of m.assignments) a.instructions.forEach((b, position) => putBlock(b, { lessonId: null, assignmentId: a.id!, position }));
  });
  for (const id of blocks.keys()) if (!keep.blocks.has(id)) store.stmt('DELETE FROM blocks WHERE id = ?').run(id);
  for (const id of assignments.keys()) if (!keep.assignments.has(id)) store.stmt('DELETE FROM assignments WHERE id = ?').run(id);
  for (const id of lessons.keys()) if (!keep.lessons.has(id)) store.stmt('DELETE FROM lessons WHERE id = ?').run(id);
  for (const id of modules.keys()) if (!keep.modules.has(id)) store.stmt('DELETE FROM modules WHERE id = ?').run(id);

  // The publish gate: a write that publishes the course must pass it, as POST .../publish does.
  if (file.course.status === 'published' && current.course.status !== 'published') assertCoursePublishable(store, courseId, now);
}

/** What a course file says of a stored block: content and review state, without where it sits or when it changed. */
function blockBody(b: BlockRecord): Record<string, unknown> {
  const { lessonId: _l, assignmentId: _a, position: _p, updatedAt: _u, ...rest } = b;
  return rest;
}
