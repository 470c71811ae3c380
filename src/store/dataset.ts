/**
 * Dataset import (fixtures, `coursebook import`, `serve --seed`, course files) and dump.
 * Import checks the whole file first (shape, duplicate ids, records that already exist,
 * references, positions, and the same rules every other entry path applies: a course's
 * rubric is installed, a standards rubric is sound, a gradebook setup is sound) and lists
 * every problem with its path; only a sound file is written, in one transaction, through
 * the table descriptions of tables.ts.
 */
import { courseRubricProblems } from '../domain/content/course-rules.js';
import { defaultGradebookSetup } from '../domain/grading/defaults.js';
import { setupProblems } from '../domain/grading/setup-soundness.js';
import { DEFAULT_RUBRIC, rubricProblems } from '../domain/readiness/index.js';
import { AppError, type Problem } from '../errors.js';
import type { Clock } from '../runtime/clock.js';
import { eachInOrder, filterInOrder, mapInOrder } from '../runtime/in-order.js';
import { Dataset, type DatasetValue } from '../schemas/dataset.js';
import { formatZodIssues } from '../schemas/problems.js';
import { textProblems } from '../schemas/text.js';
import { assignmentCourses } from './assignments.js';
import { getModule } from './courses.js';
import type { Store } from './db.js';
import { gradeCellsForBulkWrite } from './grade-cells.js';
import { getFinalGrade, hasFinalGradeHistoryVersion, latestFinalGradeHistoryVersion } from './gradebook.js';
import { siblingPositions } from './positions.js';
import { rubricExists } from './readiness.js';
import { gradedState } from './submissions.js';
import {
  ASSIGNMENTS,
  ATTESTATIONS,
  allRecords,
  BLOCKS,
  type BlockRecord,
  blockContentOf,
  blockView,
  CERTIFICATES,
  COURSES,
  ENROLLMENTS,
  FINAL_GRADE_HISTORY,
  FINAL_GRADES,
  FINDINGS,
  GRADEBOOK_SETUPS,
  gradeSubmissionOf,
  insertRecord,
  insertRecords,
  LESSONS,
  MODULES,
  REPORTING_LINES,
  RUBRICS,
  recordExists,
  recordsExisting,
  SUBMISSIONS,
  type Table,
  TEMPLATES,
  TOKENS,
  USERS,
} from './tables.js';
import { sha256Hex, storedTokensLike } from './tokens.js';

export interface ImportOptions {
  replace: boolean;
  /** Who is recorded as `updatedBy` of default gradebook setups. */
  actorId?: string;
}

export type ImportSummary = Record<string, number>;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The dataset's shape, and its text by the rules every request body meets (schemas/text.ts:
 * no lone surrogates, no U+0000), since a dataset file (`serve --seed`) reaches the store
 * without passing through a request.
 */
export function parseDataset(input: unknown): DatasetValue {
  const parsed = Dataset.safeParse(input);
  const problems = [...textProblems(input), ...(parsed.success ? [] : formatZodIssues(parsed.error.issues))];
  if (!parsed.success || problems.length > 0) {
    throw new AppError('invalid', `The dataset has ${plural(problems.length, 'problem')}; nothing was imported.`, problems);
  }
  return parsed.data;
}

/** A dataset token's id: its own, or one numbered by its place in the file. */
const tokenIdOf = (t: { id?: string | undefined }, i: number): string => t.id ?? `tok_import_${String(i + 1).padStart(4, '0')}`;
const tokenHashOf = (t: { token?: string | undefined; tokenSha256?: string | undefined }): string => t.tokenSha256 ?? sha256Hex(t.token!);

export async function importDataset(store: Store, clock: Clock, input: unknown, options: ImportOptions): Promise<ImportSummary> {
  const d = parseDataset(input);
  const tokenHashes = d.tokens.map(tokenHashOf);
  // Read once, and only when a record leaves a time out: an import that never reads the
  // clock gives the same store whenever it runs (serve's seed cache relies on it).
  let firstRead: string | undefined;
  const now = (): string => {
    firstRead ??= clock.now();
    return firstRead;
  };
  const problems: Problem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });
  const prefixed = (prefix: string, list: Problem[]) => list.forEach((p) => problem(`${prefix}.${p.path}`, p.message));

  // --- ids unique within the file -----------------------------------------------------
  const unique = (collection: string, keys: string[]) => {
    const seen = new Map<string, number>();
    keys.forEach((k, i) => {
      if (seen.has(k)) problem(`${collection}[${i}]`, `duplicate of ${collection}[${seen.get(k)}] (${k})`);
      else seen.set(k, i);
    });
  };
  unique(
    'users',
    d.users.map((r) => r.id),
  );
  unique(
    'tokens',
    d.tokens.flatMap((r) => (r.id ? [r.id] : [])),
  );
  // A secret is stored once (its hash is unique): two tokens may not share one.
  unique(
    'tokens',
    tokenHashes.map((h) => `secret sha256 ${h}`),
  );
  unique(
    'courses',
    d.courses.map((r) => r.id),
  );
  unique(
    'enrollments',
    d.enrollments.map((r) => `${r.courseId}/${r.userId}`),
  );
  unique(
    'modules',
    d.modules.map((r) => r.id),
  );
  unique(
    'lessons',
    d.lessons.map((r) => r.id),
  );
  unique('blocks', [...d.blocks.map((r) => r.id), ...d.assignments.flatMap((a) => a.instructions.map((b) => b.id))]);
  unique(
    'assignments',
    d.assignments.map((r) => r.id),
  );
  unique(
    'submissions',
    d.submissions.map((r) => r.id),
  );
  unique(
    'submissions',
    d.submissions.map((r) => `attempt ${r.attempt} of ${r.studentId} on ${r.assignmentId}`),
  );
  unique(
    'gradebookSetups',
    d.gradebookSetups.map((r) => r.courseId),
  );
  unique(
    'finalGrades',
    d.finalGrades.map((r) => `${r.courseId}/${r.studentId}`),
  );
  unique(
    'rubrics',
    d.rubrics.map((r) => r.id),
  );
  unique(
    'findings',
    d.findings.map((r) => `${r.courseId}/${r.itemId}`),
  );
  unique(
    'attestations',
    d.attestations.map((r) => `${r.courseId}/${r.rubricId}/${r.itemId}`),
  );
  unique(
    'templates',
    d.templates.map((r) => r.id),
  );
  unique(
    'certificates',
    d.certificates.map((r) => r.id),
  );
  unique(
    'certificates',
    d.certificates.map((r) => `code ${r.code}`),
  );
  unique(
    'reportingLines',
    d.reportingLines.map((r) => `${r.managerId}/${r.reportId}`),
  );

  // --- records that already exist (before references and positions, which they would confuse)
  if (!options.replace) {
    const conflicts: Problem[] = [];
    const check = async <V>(collection: string, table: Table<V>, keys: string[][]) => {
      const existing = await recordsExisting(store, table, keys);
      keys.forEach((k, i) => {
        if (existing[i]) conflicts.push({ path: `${collection}[${i}]`, message: `${k.join('/')} already exists in the store` });
      });
    };
    await check(
      'users',
      USERS,
      d.users.map((r) => [r.id]),
    );
    await check(
      'tokens',
      TOKENS,
      d.tokens.flatMap((r) => (r.id ? [[r.id]] : [])),
    );
    await check(
      'courses',
      COURSES,
      d.courses.map((r) => [r.id]),
    );
    await check(
      'enrollments',
      ENROLLMENTS,
      d.enrollments.map((r) => [r.courseId, r.userId]),
    );
    await check(
      'modules',
      MODULES,
      d.modules.map((r) => [r.id]),
    );
    await check(
      'lessons',
      LESSONS,
      d.lessons.map((r) => [r.id]),
    );
    await check(
      'blocks',
      BLOCKS,
      d.blocks.map((r) => [r.id]),
    );
    await check(
      'assignments',
      ASSIGNMENTS,
      d.assignments.map((r) => [r.id]),
    );
    await check(
      'submissions',
      SUBMISSIONS,
      d.submissions.map((r) => [r.id]),
    );
    await check(
      'finalGrades',
      FINAL_GRADES,
      d.finalGrades.map((r) => [r.courseId, r.studentId]),
    );
    await check(
      'rubrics',
      RUBRICS,
      d.rubrics.map((r) => [r.id]),
    );
    await check(
      'findings',
      FINDINGS,
      d.findings.map((r) => [r.courseId, r.itemId]),
    );
    await check(
      'templates',
      TEMPLATES,
      d.templates.map((r) => [r.id]),
    );
    await check(
      'certificates',
      CERTIFICATES,
      d.certificates.map((r) => [r.id]),
    );
    await check(
      'reportingLines',
      REPORTING_LINES,
      d.reportingLines.map((r) => [r.managerId, r.reportId]),
    );
    if (conflicts.length > 0) {
      throw new AppError(
        'conflict',
        `${plural(conflicts.length, 'record')} already exist in the store (import with --replace to overwrite); nothing was imported.`,
        conflicts,
      );
    }
  }

  // --- references (to the file or to the store) and the rules of every entry path -------
  const inFile = {
    users: new Set(d.users.map((r) => r.id)),
    courses: new Set(d.courses.map((r) => r.id)),
    modules: new Map(d.modules.map((r) => [r.id, r.courseId])),
    lessons: new Set(d.lessons.map((r) => r.id)),
    assignments: new Map<string, string>(),
    certificates: new Set(d.certificates.map((r) => r.id)),
    rubrics: new Set(d.rubrics.map((r) => r.id)),
  };
  const exists = async <V>(kind: 'users' | 'courses' | 'lessons' | 'certificates', table: Table<V>, id: string) =>
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

  // --- positions: given ones kept, missing ones appended, then each parent must be 0..n-1
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

  if (problems.length > 0) {
    throw new AppError('invalid', `The dataset has ${plural(problems.length, 'problem')}; nothing was imported.`, problems);
  }

  // --- write, all or nothing ---------------------------------------------------------
  const mode = options.replace ? 'upsert' : 'insert';
  const write = <V>(table: Table<V>, value: V, how: 'insert' | 'upsert' = mode) => insertRecord(store, table, value, how);
  // A collection in one bulk write: a large file costs no turn of the event loop per record.
  const writeAll = <V>(table: Table<V>, values: readonly V[], how: 'insert' | 'upsert' = mode) => insertRecords(store, table, values, how);
  const block = (
    b: (typeof d.blocks)[number] | (typeof d.assignments)[number]['instructions'][number],
    where: Pick<BlockRecord, 'lessonId' | 'assignmentId' | 'position'>,
  ): BlockRecord => ({
    id: b.id,
    ...where,
    origin: b.origin,
    aiState: b.aiState,
    provenance: b.provenance,
    previous: b.previous,
    updatedAt: b.updatedAt ?? now(),
    ...blockContentOf(b),
  });
  await store.tx(async () => {
    // History is append-only: an entry whose version the student's history already holds is
    // never appended again, whatever the mode (a reseed, the same file imported twice).
    const newHistory = await filterInOrder(d.finalGradeHistory, async (h) => !(await hasFinalGradeHistoryVersion(store, h.courseId, h.studentId, h.version)));
    // The highest version each replaced override has reached in the store, before this file's history lands.
    const storedFloor = await mapInOrder(d.finalGrades, async (f) => {
      const stored = options.replace ? await getFinalGrade(store, f.courseId, f.studentId) : null;
      return stored ? { stored, floor: Math.max(stored.version, await latestFinalGradeHistoryVersion(store, f.courseId, f.studentId)) } : null;
    });
    await writeAll(USERS, d.users);
    await writeAll(
      COURSES,
      d.courses.map((c) => ({ ...c, createdAt: c.createdAt ?? now(), updatedAt: c.updatedAt ?? c.createdAt ?? now() })),
    );
    await writeAll(ENROLLMENTS, d.enrollments);
    await writeAll(
      MODULES,
      d.modules.map((m) => ({ ...m, position: modulePos.get(m.id)! })),
    );
    await writeAll(
      LESSONS,
      d.lessons.map((l) => ({ ...l, courseId: lessonCourse.get(l.id)!, position: lessonPos.get(l.id)! })),
    );
    await writeAll(
      ASSIGNMENTS,
      d.assignments.map(({ instructions: _instructions, ...a }) => ({ ...a, courseId: inFile.assignments.get(a.id)!, position: assignmentPos.get(a.id)! })),
    );
    await writeAll(
      BLOCKS,
      d.assignments.flatMap((a) => a.instructions.map((b, k) => block(b, { lessonId: null, assignmentId: a.id, position: b.position ?? k }))),
    );
    await writeAll(
      BLOCKS,
      d.blocks.map((b) => block(b, { lessonId: b.lessonId, assignmentId: null, position: blockPos.get(b.id)! })),
    );
    const submissions = d.submissions.map((s) => ({
      ...s,
      state: s.state ?? (s.grade?.score !== null && s.grade?.score !== undefined ? gradedState(s.grade.releasedAt) : 'submitted'),
    }));
    const saveGradeCells = await gradeCellsForBulkWrite(
      store,
      submissions.map((s) => ({ courseId: submissionCourse.get(s.assignmentId)!, submission: gradeSubmissionOf(s) })),
    );
    await writeAll(SUBMISSIONS, submissions);
    // A course with no setup in the file or the store gets the default one, as every new course does.
    const withSetup = new Set(d.gradebookSetups.map((s) => s.courseId));
    await writeAll(GRADEBOOK_SETUPS, d.gradebookSetups, 'upsert');
    for (const c of d.courses) {
      if (withSetup.has(c.id) || (await recordExists(store, GRADEBOOK_SETUPS, [c.id]))) continue;
      await write(GRADEBOOK_SETUPS, defaultGradebookSetup(c.id, c.createdAt ?? now(), options.actorId ?? 'import'), 'insert');
    }
    for (const h of newHistory) await write(FINAL_GRADE_HISTORY, h, 'insert');
    await eachInOrder(d.finalGrades, async (f, i) => {
      const before = storedFloor[i];
      if (!before || f.version > before.floor) {
        await write(FINAL_GRADES, f);
        return;
      }
      const { stored, floor } = before;
      // Replacing an override never moves its version back: the change becomes the next
      // version, with its history entry, so versions stay unique and expectedVersion keeps
      // naming one state. Replacing it with what it already says changes nothing.
      if (stored.letter === f.letter && stored.percent === f.percent) return;
      const version = floor + 1;
      await write(FINAL_GRADES, { ...f, version, updatedAt: now() });
      await write(
        FINAL_GRADE_HISTORY,
        {
          courseId: f.courseId,
          studentId: f.studentId,
          version,
          oldLetter: stored.letter,
          oldPercent: stored.percent,
          newLetter: f.letter,
          newPercent: f.percent,
          reason: f.reason,
          by: f.updatedBy,
          at: now(),
        },
        'insert',
      );
    });
    await writeAll(RUBRICS, d.rubrics);
    await writeAll(FINDINGS, d.findings);
    await writeAll(ATTESTATIONS, d.attestations, 'upsert');
    await writeAll(
      TEMPLATES,
      d.templates.map((t) => ({ ...t, updatedAt: t.updatedAt ?? now() })),
    );
    await writeAll(CERTIFICATES, d.certificates);
    await writeAll(
      REPORTING_LINES,
      d.reportingLines.map((r) => ({ ...r, createdAt: r.createdAt ?? now() })),
    );
    await eachInOrder(d.tokens, async (t, i) => {
      const { token: _token, tokenSha256: _hash, ...rest } = t;
      const id = tokenIdOf(t, i);
      const hash = tokenHashes[i]!;
      // A revocation is never undone by an import, replace or not: a stored revocation of this
      // id or this secret wins over the file.
      const revokedAt = (await storedTokensLike(store, id, hash)).find((s) => s.revokedAt !== null)?.revokedAt ?? t.revokedAt;
      await write(TOKENS, { ...rest, id, tokenSha256: hash, revokedAt, createdAt: t.createdAt ?? now() });
    });
    // Last: every write that could touch a submission's course is done.
    await saveGradeCells();
  });

  return {
    users: d.users.length,
    tokens: d.tokens.length,
    courses: d.courses.length,
    enrollments: d.enrollments.length,
    modules: d.modules.length,
    lessons: d.lessons.length,
    blocks: d.blocks.length,
    assignments: d.assignments.length,
    submissions: d.submissions.length,
    gradebookSetups: d.gradebookSetups.length,
    finalGrades: d.finalGrades.length,
    rubrics: d.rubrics.length,
    findings: d.findings.length,
    attestations: d.attestations.length,
    templates: d.templates.length,
    certificates: d.certificates.length,
    reportingLines: d.reportingLines.length,
  };
}

/** Every record in the store, in the dataset format, each collection in a stable order. */
export async function readEverything(store: Store): Promise<Record<string, unknown>> {
  const blocks = await allRecords(store, BLOCKS, ['id']);
  const instructions = new Map<string, BlockRecord[]>();
  for (const b of blocks) {
    if (b.assignmentId === null) continue;
    const list = instructions.get(b.assignmentId) ?? [];
    list.push(b);
    instructions.set(b.assignmentId, list);
  }
  const lessonBlocks = blocks.filter((b) => b.lessonId !== null);
  return {
    coursebook: 1,
    users: await allRecords(store, USERS),
    // A dump keeps the hash, never a secret, in this field order.
    tokens: (await allRecords(store, TOKENS)).map((t) => ({
      id: t.id,
      tokenSha256: t.tokenSha256,
      userId: t.userId,
      scopes: t.scopes,
      name: t.name,
      createdAt: t.createdAt,
      expiresAt: t.expiresAt,
      revokedAt: t.revokedAt,
      lastUsedAt: t.lastUsedAt,
    })),
    courses: await allRecords(store, COURSES),
    enrollments: await allRecords(store, ENROLLMENTS),
    modules: await allRecords(store, MODULES),
    lessons: await allRecords(store, LESSONS),
    blocks: lessonBlocks.map(blockView),
    assignments: (await allRecords(store, ASSIGNMENTS)).map((a) => ({
      ...a,
      instructions: (instructions.get(a.id) ?? []).sort((x, y) => x.position - y.position).map(blockView),
    })),
    submissions: await allRecords(store, SUBMISSIONS),
    gradebookSetups: await allRecords(store, GRADEBOOK_SETUPS),
    finalGrades: await allRecords(store, FINAL_GRADES),
    finalGradeHistory: await allRecords(store, FINAL_GRADE_HISTORY, ['course_id', 'student_id', 'version', 'seq']),
    rubrics: await allRecords(store, RUBRICS),
    findings: await allRecords(store, FINDINGS),
    attestations: await allRecords(store, ATTESTATIONS),
    templates: await allRecords(store, TEMPLATES),
    certificates: await allRecords(store, CERTIFICATES),
    reportingLines: await allRecords(store, REPORTING_LINES),
  };
}

/** The whole store as a dataset document; dump -> import -> dump gives the same bytes. */
export async function dumpDataset(store: Store): Promise<string> {
  return JSON.stringify(await readEverything(store), null, 2) + '\n';
}
