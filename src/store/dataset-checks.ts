/**
 * The checks of a dataset import (dataset.ts importDataset), one named phase each, in the
 * order the import runs them: ids unique within the file, records that already exist in the
 * store, references and the rules every entry path applies, positions. Each answers the
 * problems it found, with their paths in the file; the import writes nothing unless all
 * of them come back empty, and takes from them what the writes need (each lesson's,
 * assignment's and submission's course, each positioned record's position).
 */
import { courseRubricProblems } from '../domain/content/course-rules.js';
import { setupProblems } from '../domain/grading/setup-soundness.js';
import { DEFAULT_RUBRIC, rubricProblems } from '../domain/readiness/index.js';
import type { Problem } from '../errors.js';
import { eachInOrder } from '../runtime/in-order.js';
import type { DatasetValue } from '../schemas/dataset.js';
import { assignmentCourses } from './assignments.js';
import { blockParents } from './blocks.js';
import { getModule } from './courses.js';
import type { Store } from './db.js';
import { siblingPositions } from './positions.js';
import { rubricExists } from './rubrics.js';
import {
  ASSIGNMENTS,
  CERTIFICATES,
  COURSES,
  ENROLLMENTS,
  FINAL_GRADES,
  FINDINGS,
  LESSONS,
  MODULES,
  REPORTING_LINES,
  RUBRICS,
  recordExists,
  recordsExisting,
  SUBMISSIONS,
  type TableKey,
  TEMPLATES,
  TOKENS,
  USERS,
} from './tables.js';
import { sha256Hex, storedTokensLike } from './tokens.js';

/** A dataset token's id: its own, or one numbered by its place in the file. */
export const tokenIdOf = (t: { id?: string | undefined }, i: number): string => t.id ?? `tok_import_${String(i + 1).padStart(4, '0')}`;
/** The hash a dataset token's secret is stored as. */
export const tokenHashOf = (t: { token?: string | undefined; tokenSha256?: string | undefined }): string => t.tokenSha256 ?? sha256Hex(t.token!);

/**
 * A dataset path (`blocks[3].text`, `assignments[0].instructions[1]`) as the path of the same
 * place in what the caller sent: the dataset itself (unchanged), or a course file, whose
 * records are nested (`modules[1].lessons[0].blocks[2].text`, domain/content/course-file.ts).
 */
export type PathInFile = (datasetPath: string) => string;
const asWritten: PathInFile = (path) => path;

/** Problems, collected in the order they are found, each at its path in the caller's file. */
function problemList(at: PathInFile) {
  const problems: Problem[] = [];
  const problem = (path: string, message: string) => problems.push({ path: at(path), message });
  const prefixed = (prefix: string, list: Problem[]) => list.forEach((p) => problem(`${prefix}.${p.path}`, p.message));
  return { problems, problem, prefixed };
}

/** A record's key with its path in the file. */
interface Keyed<K> {
  key: K;
  path: string;
}

/** Each record's key at its path (`collection[i]`); a record whose key is undefined is left out. */
function keyedAt<R, K>(collection: string, records: readonly R[], keyOf: (r: R) => K | undefined): Keyed<K>[] {
  return records.flatMap((r, i) => {
    const key = keyOf(r);
    return key === undefined ? [] : [{ key, path: `${collection}[${i}]` }];
  });
}

/** Every block of the file, at its path: lesson blocks, then each assignment's instructions (one table, one id space). */
function blocksOfFile(d: DatasetValue): Keyed<string>[] {
  return [
    ...keyedAt('blocks', d.blocks, (b) => b.id),
    ...d.assignments.flatMap((a, i) => a.instructions.map((b, k) => ({ key: b.id, path: `assignments[${i}].instructions[${k}]` }))),
  ];
}

/**
 * Phase 1: every id (and every other key a record is found by) once within the file. A
 * duplicate is named at its own path and points to the first one's: an instruction block
 * whose id a lesson block has is `assignments[i].instructions[k]`, not a place in `blocks`.
 */
export function duplicateIdProblems(d: DatasetValue, tokenHashes: readonly string[], at: PathInFile = asWritten): Problem[] {
  const { problems, problem } = problemList(at);
  const keyed: Keyed<string>[][] = [
    keyedAt('users', d.users, (r) => r.id),
    keyedAt('tokens', d.tokens, (r) => r.id),
    // A secret is stored once (its hash is unique): two tokens may not share one.
    keyedAt('tokens', tokenHashes, (h) => `secret sha256 ${h}`),
    keyedAt('courses', d.courses, (r) => r.id),
    keyedAt('enrollments', d.enrollments, (r) => `${r.courseId}/${r.userId}`),
    keyedAt('modules', d.modules, (r) => r.id),
    keyedAt('lessons', d.lessons, (r) => r.id),
    blocksOfFile(d),
    keyedAt('assignments', d.assignments, (r) => r.id),
    keyedAt('submissions', d.submissions, (r) => r.id),
    keyedAt('submissions', d.submissions, (r) => `attempt ${r.attempt} of ${r.studentId} on ${r.assignmentId}`),
    keyedAt('gradebookSetups', d.gradebookSetups, (r) => r.courseId),
    keyedAt('finalGrades', d.finalGrades, (r) => `${r.courseId}/${r.studentId}`),
    keyedAt('rubrics', d.rubrics, (r) => r.id),
    keyedAt('findings', d.findings, (r) => `${r.courseId}/${r.itemId}`),
    keyedAt('attestations', d.attestations, (r) => `${r.courseId}/${r.rubricId}/${r.itemId}`),
    keyedAt('templates', d.templates, (r) => r.id),
    keyedAt('certificates', d.certificates, (r) => r.id),
    keyedAt('certificates', d.certificates, (r) => `code ${r.code}`),
    keyedAt('reportingLines', d.reportingLines, (r) => `${r.managerId}/${r.reportId}`),
  ];
  for (const records of keyed) {
    const seen = new Map<string, string>();
    for (const { key, path } of records) {
      const first = seen.get(key);
      if (first !== undefined) problem(path, `duplicate of ${at(first)} (${key})`);
      else seen.set(key, path);
    }
  }
  return problems;
}

/**
 * Phase 2, for an import that does not replace: the file's records that the store already
 * holds. Run before references and positions, which such records would confuse. A block is
 * looked for among every stored block, lesson blocks and instructions alike (one table), and
 * named with where it is stored.
 */
export async function recordsAlreadyStored(store: Store, d: DatasetValue, at: PathInFile = asWritten): Promise<Problem[]> {
  const { problems, problem } = problemList(at);
  const stored = async (table: TableKey, records: Keyed<string[]>[]) => {
    const existing = await recordsExisting(
      store,
      table,
      records.map((r) => r.key),
    );
    records.forEach(({ key, path }, i) => {
      if (existing[i]) problem(path, `${key.join('/')} already exists in the store`);
    });
  };
  const storedBlocks = async (records: Keyed<string>[]) => {
    const parents = await blockParents(
      store,
      records.map((r) => r.key),
    );
    for (const { key, path } of records) {
      const parent = parents.get(key);
      if (!parent) continue;
      const where = 'lessonId' in parent ? `a block of lesson ${parent.lessonId}` : `an instruction of assignment ${parent.assignmentId}`;
      problem(path, `${key} already exists in the store (${where})`);
    }
  };
  await stored(
    USERS,
    keyedAt('users', d.users, (r) => [r.id]),
  );
  await stored(
    TOKENS,
    keyedAt('tokens', d.tokens, (r) => (r.id ? [r.id] : undefined)),
  );
  await stored(
    COURSES,
    keyedAt('courses', d.courses, (r) => [r.id]),
  );
  await stored(
    ENROLLMENTS,
    keyedAt('enrollments', d.enrollments, (r) => [r.courseId, r.userId]),
  );
  await stored(
    MODULES,
    keyedAt('modules', d.modules, (r) => [r.id]),
  );
  await stored(
    LESSONS,
    keyedAt('lessons', d.lessons, (r) => [r.id]),
  );
  await storedBlocks(blocksOfFile(d));
  await stored(
    ASSIGNMENTS,
    keyedAt('assignments', d.assignments, (r) => [r.id]),
  );
  await stored(
    SUBMISSIONS,
    keyedAt('submissions', d.submissions, (r) => [r.id]),
  );
  await stored(
    FINAL_GRADES,
    keyedAt('finalGrades', d.finalGrades, (r) => [r.courseId, r.studentId]),
  );
  await stored(
    RUBRICS,
    keyedAt('rubrics', d.rubrics, (r) => [r.id]),
  );
  await stored(
    FINDINGS,
    keyedAt('findings', d.findings, (r) => [r.courseId, r.itemId]),
  );
  await stored(
    TEMPLATES,
    keyedAt('templates', d.templates, (r) => [r.id]),
  );
  await stored(
    CERTIFICATES,
    keyedAt('certificates', d.certificates, (r) => [r.id]),
  );
  await stored(
    REPORTING_LINES,
    keyedAt('reportingLines', d.reportingLines, (r) => [r.managerId, r.reportId]),
  );
  return problems;
}

/** The course of each lesson, assignment and submission of the file, for the writes. */
export interface DatasetCourses {
  lessonCourse: Map<string, string>;
  assignmentCourse: Map<string, string>;
  submissionCourse: Map<string, string>;
}

/**
 * Phase 3: every reference names a record of the file or the store, and the file meets the
 * rules every other entry path applies (a course's rubric is installed, a standards rubric
 * is sound, a gradebook setup is sound, a token's secret is not stored under another id).
 */
export async function referenceProblems(
  store: Store,
  d: DatasetValue,
  tokenHashes: readonly string[],
  at: PathInFile = asWritten,
): Promise<{ problems: Problem[] } & DatasetCourses> {
  const { problems, problem, prefixed } = problemList(at);
  const inFile = {
    users: new Set(d.users.map((r) => r.id)),
    courses: new Set(d.courses.map((r) => r.id)),
    modules: new Map(d.modules.map((r) => [r.id, r.courseId])),
    lessons: new Set(d.lessons.map((r) => r.id)),
    assignments: new Map<string, string>(),
    certificates: new Set(d.certificates.map((r) => r.id)),
    rubrics: new Set(d.rubrics.map((r) => r.id)),
  };
  const exists = async (kind: 'users' | 'courses' | 'lessons' | 'certificates', table: TableKey, id: string) =>
    inFile[kind].has(id) || (await recordExists(store, table, [id]));
  const user = (id: string) => exists('users', USERS, id);
  /** Whether each of many user ids is in the file or the store, asked of the store in batches. */
  const usersKnown = async (ids: readonly string[]): Promise<(id: string) => boolean> => {
    const asked = [...new Set(ids.filter((id) => !inFile.users.has(id)))];
    const found = await recordsExisting(
      store,
      USERS,
      asked.map((id) => [id]),
    );
    const stored = new Set(asked.filter((_, k) => found[k]));
    return (id) => inFile.users.has(id) || stored.has(id);
  };
  const course = (id: string) => exists('courses', COURSES, id);
  const moduleCourse = async (id: string): Promise<string | undefined> => inFile.modules.get(id) ?? (await getModule(store, id))?.courseId;
  const ref = (ok: boolean, path: string, what: string, id: string) => {
    if (!ok) problem(path, `${what} ${JSON.stringify(id)} does not exist in the file or the store`);
  };

  d.rubrics.forEach((r, i) => {
    if (r.id === DEFAULT_RUBRIC.id) problem(`rubrics[${i}].id`, `${JSON.stringify(r.id)} is the built-in rubric's id`);
    prefixed(`rubrics[${i}]`, rubricProblems(r));
  });
  const installedRubrics = new Set(inFile.rubrics);
  for (const c of d.courses) if (await rubricExists(store, c.rubricId)) installedRubrics.add(c.rubricId);
  d.courses.forEach((c, i) =>
    prefixed(
      `courses[${i}]`,
      courseRubricProblems(c.rubricId, (id) => installedRubrics.has(id)),
    ),
  );
  await eachInOrder(d.tokens, async (r, i) => {
    ref(await user(r.userId), `tokens[${i}].userId`, 'user', r.userId);
    const id = tokenIdOf(r, i);
    const other = (await storedTokensLike(store, id, tokenHashes[i]!)).find((t) => t.tokenSha256 === tokenHashes[i] && t.id !== id);
    if (other) problem(`tokens[${i}]`, `its secret is already stored as token ${other.id}`);
  });
  const enrolledUser = await usersKnown(d.enrollments.map((r) => r.userId));
  await eachInOrder(d.enrollments, async (r, i) => {
    ref(await course(r.courseId), `enrollments[${i}].courseId`, 'course', r.courseId);
    ref(enrolledUser(r.userId), `enrollments[${i}].userId`, 'user', r.userId);
  });
  await eachInOrder(d.modules, async (r, i) => ref(await course(r.courseId), `modules[${i}].courseId`, 'course', r.courseId));
  const lessonCourse = new Map<string, string>();
  await eachInOrder(d.lessons, async (r, i) => {
    const owner = await moduleCourse(r.moduleId);
    ref(owner !== undefined, `lessons[${i}].moduleId`, 'module', r.moduleId);
    if (owner !== undefined && r.courseId !== undefined && r.courseId !== owner)
      problem(`lessons[${i}].courseId`, `must be ${JSON.stringify(owner)}, the course of module ${r.moduleId}`);
    if (owner !== undefined) lessonCourse.set(r.id, owner);
  });
  await eachInOrder(d.blocks, async (r, i) => ref(await exists('lessons', LESSONS, r.lessonId), `blocks[${i}].lessonId`, 'lesson', r.lessonId));
  await eachInOrder(d.assignments, async (r, i) => {
    const owner = await moduleCourse(r.moduleId);
    ref(owner !== undefined, `assignments[${i}].moduleId`, 'module', r.moduleId);
    if (owner !== undefined && r.courseId !== undefined && r.courseId !== owner)
      problem(`assignments[${i}].courseId`, `must be ${JSON.stringify(owner)}, the course of module ${r.moduleId}`);
    if (owner !== undefined) inFile.assignments.set(r.id, owner);
  });
  // The course of every assignment a submission names (for the grade cells built after the
  // writes) and the users they name: looked up in batches, since a file may hold millions.
  const submissionCourse = new Map(inFile.assignments);
  const storedAssignments = [...new Set(d.submissions.map((r) => r.assignmentId).filter((id) => !submissionCourse.has(id)))];
  for (const [id, courseId] of await assignmentCourses(store, storedAssignments)) submissionCourse.set(id, courseId);
  const knownUser = await usersKnown(d.submissions.map((r) => r.studentId));
  d.submissions.forEach((r, i) => {
    ref(submissionCourse.has(r.assignmentId), `submissions[${i}].assignmentId`, 'assignment', r.assignmentId);
    ref(knownUser(r.studentId), `submissions[${i}].studentId`, 'user', r.studentId);
  });
  await eachInOrder(d.gradebookSetups, async (s, i) => {
    ref(await course(s.courseId), `gradebookSetups[${i}].courseId`, 'course', s.courseId);
    prefixed(`gradebookSetups[${i}]`, setupProblems(s, s.courseId));
  });
  await eachInOrder(d.finalGrades, async (r, i) => {
    ref(await course(r.courseId), `finalGrades[${i}].courseId`, 'course', r.courseId);
    ref(await user(r.studentId), `finalGrades[${i}].studentId`, 'user', r.studentId);
  });
  await eachInOrder(d.finalGradeHistory, async (r, i) => ref(await course(r.courseId), `finalGradeHistory[${i}].courseId`, 'course', r.courseId));
  await eachInOrder(d.findings, async (r, i) => ref(await course(r.courseId), `findings[${i}].courseId`, 'course', r.courseId));
  await eachInOrder(d.attestations, async (r, i) => ref(await course(r.courseId), `attestations[${i}].courseId`, 'course', r.courseId));
  await eachInOrder(d.templates, async (t, i) => {
    if (t.owner.kind === 'user') ref(await user(t.owner.userId), `templates[${i}].owner.userId`, 'user', t.owner.userId);
    const keys = new Set<string>();
    t.modules.forEach((m, k) => {
      if (keys.has(m.key)) problem(`templates[${i}].modules[${k}].key`, `duplicate key ${JSON.stringify(m.key)}`);
      keys.add(m.key);
    });
  });
  await eachInOrder(d.certificates, async (r, i) => {
    ref(await user(r.userId), `certificates[${i}].userId`, 'user', r.userId);
    if (r.replaces) ref(await exists('certificates', CERTIFICATES, r.replaces), `certificates[${i}].replaces`, 'certificate', r.replaces);
    if (r.replacedBy) ref(await exists('certificates', CERTIFICATES, r.replacedBy), `certificates[${i}].replacedBy`, 'certificate', r.replacedBy);
  });
  await eachInOrder(d.reportingLines, async (r, i) => {
    ref(await user(r.managerId), `reportingLines[${i}].managerId`, 'user', r.managerId);
    ref(await user(r.reportId), `reportingLines[${i}].reportId`, 'user', r.reportId);
    if (r.managerId === r.reportId) problem(`reportingLines[${i}]`, 'a user cannot report to themself');
  });
  return { problems, lessonCourse, assignmentCourse: inFile.assignments, submissionCourse };
}

/** Where each positioned record of the file goes under its parent. */
export interface DatasetPositions {
  modules: Map<string, number>;
  lessons: Map<string, number>;
  blocks: Map<string, number>;
  assignments: Map<string, number>;
}

/**
 * Phase 4, positions: given ones kept, missing ones appended after their siblings in the
 * store, then each parent's must be 0..n-1.
 */
export async function placePositions(store: Store, d: DatasetValue, at: PathInFile = asWritten): Promise<{ problems: Problem[] } & DatasetPositions> {
  const { problems, problem } = problemList(at);
  const place = async <T extends { id: string; position?: number | undefined }>(
    records: T[],
    collection: string,
    table: Parameters<typeof siblingPositions>[1],
    parentOf: (r: T) => string | undefined,
  ): Promise<Map<string, number>> => {
    const result = new Map<string, number>();
    const groups = new Map<string, number[]>();
    records.forEach((r, i) => {
      const parent = parentOf(r);
      if (parent === undefined) return;
      const list = groups.get(parent) ?? [];
      list.push(i);
      groups.set(parent, list);
    });
    for (const [parent, indexes] of groups) {
      const fileIds = new Set(indexes.map((i) => records[i]!.id));
      const taken = (await siblingPositions(store, table, parent)).filter((s) => !fileIds.has(s.id)).map((s) => s.position);
      let next = taken.length === 0 ? 0 : Math.max(...taken) + 1;
      for (const i of indexes) {
        const r = records[i]!;
        const pos = r.position ?? next;
        next = Math.max(next, pos + 1);
        taken.push(pos);
        result.set(r.id, pos);
      }
      const sorted = [...taken].sort((a, b) => a - b);
      if (sorted.some((p, k) => p !== k)) {
        problem(
          `${collection}[${indexes[0]}].position`,
          `positions under ${table.parent.replace('_id', '')} ${JSON.stringify(parent)} must be 0..${sorted.length - 1} with no gaps or repeats (got ${sorted.join(', ')})`,
        );
      }
    }
    return result;
  };
  const modulePos = await place(d.modules, 'modules', { table: 'modules', parent: 'course_id' }, (r) => r.courseId);
  const lessonPos = await place(d.lessons, 'lessons', { table: 'lessons', parent: 'module_id' }, (r) => r.moduleId);
  const blockPos = await place(d.blocks, 'blocks', { table: 'blocks', parent: 'lesson_id' }, (r) => r.lessonId);
  const assignmentPos = await place(d.assignments, 'assignments', { table: 'assignments', parent: 'module_id' }, (r) => r.moduleId);
  d.assignments.forEach((a, i) => {
    const positions = a.instructions.map((b, k) => b.position ?? k).sort((x, y) => x - y);
    if (positions.some((p, k) => p !== k))
      problem(`assignments[${i}].instructions`, `block positions must be 0..${positions.length - 1} with no gaps or repeats`);
  });
  return { problems, modules: modulePos, lessons: lessonPos, blocks: blockPos, assignments: assignmentPos };
}
