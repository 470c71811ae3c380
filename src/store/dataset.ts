/**
 * Dataset import (fixtures, `coursebook import`, `serve --seed`, course files) and dump.
 * Import checks the whole file first (its shape here; then, in dataset-checks.ts, duplicate
 * ids, records that already exist, references, positions, and the same rules every other
 * entry path applies: a course's rubric is installed, a standards rubric is sound, a
 * gradebook setup is sound) and lists every problem with its path; only a sound file is
 * written, in one transaction, through the table descriptions of tables.ts.
 */
import { defaultGradebookSetup } from '../domain/grading/defaults.js';
import { rubricProblems } from '../domain/readiness/index.js';
import { AppError, type Problem } from '../errors.js';
import type { Clock } from '../runtime/clock.js';
import { eachInOrder, filterInOrder, mapInOrder } from '../runtime/in-order.js';
import { Dataset, type DatasetValue } from '../schemas/dataset.js';
import { formatZodIssues, withRuleProblems } from '../schemas/problems.js';
import { textProblems } from '../schemas/text.js';
import { duplicateIdProblems, type PathInFile, placePositions, recordsAlreadyStored, referenceProblems, tokenHashOf, tokenIdOf } from './dataset-checks.js';
import type { Store } from './db.js';
import { gradeCellsForBulkWrite } from './grade-cells.js';
import { getFinalGrade, hasFinalGradeHistoryVersion, latestFinalGradeHistoryVersion } from './gradebook.js';
import { replaceMovesOf, tidyAfterReplace } from './replace-moves.js';
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
  SUBMISSIONS,
  type Table,
  TEMPLATES,
  TOKENS,
  USERS,
} from './tables.js';
import { storedTokensLike } from './tokens.js';
import { assertInstructorKept } from './users.js';

export interface ImportOptions {
  replace: boolean;
  /** Who is recorded as `updatedBy` of default gradebook setups. */
  actorId?: string;
  /** What the caller sent, when it is not a dataset: a course file (store/course-file.ts). */
  source?: ImportSource;
}

/** How problems are told for a file that reaches the import as a dataset but was written otherwise. */
export interface ImportSource {
  /** What the file is called in messages (`course file`). */
  name: string;
  /** A dataset path as the path of the same place in the file. */
  pathOf: PathInFile;
  /** The message of a conflict (records the store already holds, at their paths in the file). */
  conflictMessage: (conflicts: readonly Problem[]) => string;
}

/** A dataset's own conflict message: --replace overwrites. */
const datasetConflictMessage = (conflicts: readonly Problem[]) =>
  `${plural(conflicts.length, 'record')} ${conflicts.length === 1 ? 'already exists' : 'already exist'} in the store (import with --replace to overwrite); nothing was imported.`;

export type ImportSummary = Record<string, number>;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The dataset's shape, and its text by the rules every request body meets (schemas/text.ts:
 * no lone surrogates, no U+0000), since a dataset file (`serve --seed`) reaches the store
 * without passing through a request. A file whose shape is refused has its standards rubrics
 * judged here too (rubricProblems, read as far as their shape allows), so one answer lists a
 * rubric's duplicate items and unknown checks with the shape's problems; a sound file has
 * them judged with its references (dataset-checks.ts phase 3), listed with those instead.
 */
export function parseDataset(input: unknown, source?: ImportSource): DatasetValue {
  const parsed = Dataset.safeParse(input);
  const shape = parsed.success ? [] : withRuleProblems(formatZodIssues(parsed.error.issues, '', input), rubricRuleProblems(input));
  const problems = [...textProblems(input), ...shape];
  if (!parsed.success || problems.length > 0)
    throw problemsFound(
      problems.map((p) => ({ ...p, path: source ? source.pathOf(p.path) : p.path })),
      source,
    );
  return parsed.data;
}

/** rubricProblems of each standards rubric of a file the schema refused, at their paths in it. */
function rubricRuleProblems(input: unknown): Problem[] {
  const rubrics = (input as { rubrics?: unknown } | null)?.rubrics;
  return (Array.isArray(rubrics) ? rubrics : []).flatMap((r, i) => rubricProblems(r).map((p) => ({ path: `rubrics[${i}].${p.path}`, message: p.message })));
}

const problemsFound = (problems: Problem[], source: ImportSource | undefined) =>
  new AppError('invalid', `The ${source?.name ?? 'dataset'} has ${plural(problems.length, 'problem')}; nothing was imported.`, problems);

/** assertInstructorKept for each course whose enrollments the file gives, at their paths in the file. */
async function instructorsKept(store: Store, d: DatasetValue, at: PathInFile = (path) => path): Promise<void> {
  const byCourse = new Map<string, { userId: string; role: (typeof d.enrollments)[number]['role']; index: number }[]>();
  d.enrollments.forEach((e, index) => {
    const list = byCourse.get(e.courseId) ?? [];
    list.push({ userId: e.userId, role: e.role, index });
    byCourse.set(e.courseId, list);
  });
  for (const [courseId, changes] of byCourse) {
    const index = new Map(changes.map((c) => [c.userId, c.index]));
    await assertInstructorKept(store, courseId, changes, (c) => at(`enrollments[${index.get(c.userId)}].role`));
  }
}

export async function importDataset(store: Store, clock: Clock, input: unknown, options: ImportOptions): Promise<ImportSummary> {
  const { source } = options;
  const d = parseDataset(input, source);
  const at = source?.pathOf;
  const tokenHashes = d.tokens.map(tokenHashOf);
  // Read once, and only when a record leaves a time out: an import that never reads the
  // clock gives the same store whenever it runs (serve's seed cache relies on it).
  let firstRead: string | undefined;
  const now = (): string => {
    firstRead ??= clock.now();
    return firstRead;
  };

  // --- checks (dataset-checks.ts): every problem is listed before anything is written ----
  const problems = duplicateIdProblems(d, tokenHashes, at);
  if (!options.replace) {
    const conflicts = await recordsAlreadyStored(store, d, at);
    if (conflicts.length > 0) throw new AppError('conflict', (source?.conflictMessage ?? datasetConflictMessage)(conflicts), conflicts);
  }
  const { lessonCourse, assignmentCourse, submissionCourse, problems: referenceList } = await referenceProblems(store, d, tokenHashes, at);
  const positions = await placePositions(store, d, at);
  problems.push(...referenceList, ...positions.problems);
  if (problems.length > 0) throw problemsFound(problems, source);
  // A replace may change stored enrollments; a course keeps its last instructor (the rule of
  // the enrollment routes). Without --replace every enrollment of the file is new.
  if (options.replace) await instructorsKept(store, d, at);

  // --- write, all or nothing ---------------------------------------------------------
  const mode = options.replace ? 'upsert' : 'insert';
  const moves = options.replace ? await replaceMovesOf(store, d) : null;
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
  await store.tx(async (tx) => {
    const write = <V>(table: Table<V>, value: V, how: 'insert' | 'upsert' = mode) => insertRecord(tx, table, value, how);
    // A collection in one bulk write: a large file costs no turn of the event loop per record.
    const writeAll = <V>(table: Table<V>, values: readonly V[], how: 'insert' | 'upsert' = mode) => insertRecords(tx, table, values, how);
    // History is append-only: an entry whose version the student's history already holds is
    // never appended again, whatever the mode (a reseed, the same file imported twice).
    const newHistory = await filterInOrder(d.finalGradeHistory, async (h) => !(await hasFinalGradeHistoryVersion(tx, h.courseId, h.studentId, h.version)));
    // The highest version each replaced override has reached in the tx, before this file's history lands.
    const storedFloor = await mapInOrder(d.finalGrades, async (f) => {
      const stored = options.replace ? await getFinalGrade(tx, f.courseId, f.studentId) : null;
      return stored ? { stored, floor: Math.max(stored.version, await latestFinalGradeHistoryVersion(tx, f.courseId, f.studentId)) } : null;
    });
    await writeAll(USERS, d.users);
    await writeAll(
      COURSES,
      d.courses.map((c) => ({ ...c, createdAt: c.createdAt ?? now(), updatedAt: c.updatedAt ?? c.createdAt ?? now() })),
    );
    await writeAll(ENROLLMENTS, d.enrollments);
    await writeAll(
      MODULES,
      d.modules.map((m) => ({ ...m, position: positions.modules.get(m.id)! })),
    );
    await writeAll(
      LESSONS,
      d.lessons.map((l) => ({ ...l, courseId: lessonCourse.get(l.id)!, position: positions.lessons.get(l.id)! })),
    );
    await writeAll(
      ASSIGNMENTS,
      d.assignments.map(({ instructions: _instructions, ...a }) => ({
        ...a,
        courseId: assignmentCourse.get(a.id)!,
        position: positions.assignments.get(a.id)!,
      })),
    );
    await writeAll(
      BLOCKS,
      d.assignments.flatMap((a) => a.instructions.map((b, k) => block(b, { lessonId: null, assignmentId: a.id, position: b.position ?? k }))),
    );
    await writeAll(
      BLOCKS,
      d.blocks.map((b) => block(b, { lessonId: b.lessonId, assignmentId: null, position: positions.blocks.get(b.id)! })),
    );
    if (moves) await tidyAfterReplace(tx, moves);
    const submissions = d.submissions.map((s) => ({
      ...s,
      state: s.state ?? (s.grade?.score !== null && s.grade?.score !== undefined ? gradedState(s.grade.releasedAt) : 'submitted'),
    }));
    const saveGradeCells = await gradeCellsForBulkWrite(
      tx,
      submissions.map((s) => ({ courseId: submissionCourse.get(s.assignmentId)!, submission: gradeSubmissionOf(s) })),
    );
    await writeAll(SUBMISSIONS, submissions);
    // A course with no setup in the file or the tx gets the default one, as every new course does.
    const withSetup = new Set(d.gradebookSetups.map((s) => s.courseId));
    await writeAll(GRADEBOOK_SETUPS, d.gradebookSetups, 'upsert');
    for (const c of d.courses) {
      if (withSetup.has(c.id) || (await recordExists(tx, GRADEBOOK_SETUPS, [c.id]))) continue;
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
      const revokedAt = (await storedTokensLike(tx, id, hash)).find((s) => s.revokedAt !== null)?.revokedAt ?? t.revokedAt;
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
