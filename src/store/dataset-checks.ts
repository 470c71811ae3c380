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
import { getModule } from './courses.js';
import type { Store } from './db.js';
import { siblingPositions } from './positions.js';
import { rubricExists } from './readiness.js';
import {
  ASSIGNMENTS,
  BLOCKS,
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

/** Problems, collected in the order they are found. */
function problemList() {
  const problems: Problem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });
  const prefixed = (prefix: string, list: Problem[]) => list.forEach((p) => problem(`${prefix}.${p.path}`, p.message));
  return { problems, problem, prefixed };
}

/** Phase 1: every id (and every other key a record is found by) once within the file. */
export function duplicateIdProblems(d: DatasetValue, tokenHashes: readonly string[]): Problem[] {
  const { problems, problem } = problemList();
  const unique = (collection: string, keys: string[]) => {
    const seen = new Map<string, number>();
    keys.forEach((k, i) => {
      if (seen.has(k)) problem(`${collection}[${i}]`, `duplicate of ${collection}[${seen.get(k)}] (${k})`);
      else seen.set(k, i);
    });
  };
  const keyed: [collection: string, keys: string[]][] = [
    ['users', d.users.map((r) => r.id)],
    ['tokens', d.tokens.flatMap((r) => (r.id ? [r.id] : []))],
    // A secret is stored once (its hash is unique): two tokens may not share one.
    ['tokens', tokenHashes.map((h) => `secret sha256 ${h}`)],
    ['courses', d.courses.map((r) => r.id)],
    ['enrollments', d.enrollments.map((r) => `${r.courseId}/${r.userId}`)],
    ['modules', d.modules.map((r) => r.id)],
    ['lessons', d.lessons.map((r) => r.id)],
    ['blocks', [...d.blocks.map((r) => r.id), ...d.assignments.flatMap((a) => a.instructions.map((b) => b.id))]],
    ['assignments', d.assignments.map((r) => r.id)],
    ['submissions', d.submissions.map((r) => r.id)],
    ['submissions', d.submissions.map((r) => `attempt ${r.attempt} of ${r.studentId} on ${r.assignmentId}`)],
    ['gradebookSetups', d.gradebookSetups.map((r) => r.courseId)],
    ['finalGrades', d.finalGrades.map((r) => `${r.courseId}/${r.studentId}`)],
    ['rubrics', d.rubrics.map((r) => r.id)],
    ['findings', d.findings.map((r) => `${r.courseId}/${r.itemId}`)],
    ['attestations', d.attestations.map((r) => `${r.courseId}/${r.rubricId}/${r.itemId}`)],
    ['templates', d.templates.map((r) => r.id)],
    ['certificates', d.certificates.map((r) => r.id)],
    ['certificates', d.certificates.map((r) => `code ${r.code}`)],
    ['reportingLines', d.reportingLines.map((r) => `${r.managerId}/${r.reportId}`)],
  ];
  for (const [collection, keys] of keyed) unique(collection, keys);
  return problems;
}

/**
 * Phase 2, for an import that does not replace: the file's records that the store already
 * holds. Run before references and positions, which such records would confuse.
 */
export async function recordsAlreadyStored(store: Store, d: DatasetValue): Promise<Problem[]> {
  const keyed: [collection: string, table: TableKey, keys: string[][]][] = [
    ['users', USERS, d.users.map((r) => [r.id])],
    ['tokens', TOKENS, d.tokens.flatMap((r) => (r.id ? [[r.id]] : []))],
    ['courses', COURSES, d.courses.map((r) => [r.id])],
    ['enrollments', ENROLLMENTS, d.enrollments.map((r) => [r.courseId, r.userId])],
    ['modules', MODULES, d.modules.map((r) => [r.id])],
    ['lessons', LESSONS, d.lessons.map((r) => [r.id])],
    ['blocks', BLOCKS, d.blocks.map((r) => [r.id])],
    ['assignments', ASSIGNMENTS, d.assignments.map((r) => [r.id])],
    ['submissions', SUBMISSIONS, d.submissions.map((r) => [r.id])],
    ['finalGrades', FINAL_GRADES, d.finalGrades.map((r) => [r.courseId, r.studentId])],
    ['rubrics', RUBRICS, d.rubrics.map((r) => [r.id])],
    ['findings', FINDINGS, d.findings.map((r) => [r.courseId, r.itemId])],
    ['templates', TEMPLATES, d.templates.map((r) => [r.id])],
    ['certificates', CERTIFICATES, d.certificates.map((r) => [r.id])],
    ['reportingLines', REPORTING_LINES, d.reportingLines.map((r) => [r.managerId, r.reportId])],
  ];
  const conflicts: Problem[] = [];
  for (const [collection, table, keys] of keyed) {
    const existing = await recordsExisting(store, table, keys);
    keys.forEach((k, i) => {
      if (existing[i]) conflicts.push({ path: `${collection}[${i}]`, message: `${k.join('/')} already exists in the store` });
    });
  }
  return conflicts;
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
export async function referenceProblems(store: Store, d: DatasetValue, tokenHashes: readonly string[]): Promise<{ problems: Problem[] } & DatasetCourses> {
  const { problems, problem, prefixed } = problemList();
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
export async function placePositions(store: Store, d: DatasetValue): Promise<{ problems: Problem[] } & DatasetPositions> {
  const { problems, problem } = problemList();
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
