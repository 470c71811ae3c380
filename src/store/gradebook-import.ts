/**
 * Grades from a spreadsheet into the gradebook (issue #13), all or nothing: plan against
 * what the export prints now, write every change in one transaction, and answer the plan
 * with what the export prints afterwards. A dry run does the same and rolls back, so its
 * plan is exactly what applying would do.
 */
import { createHash } from 'node:crypto';
import { type ImportBody, type PlannedCell, planGradesImport } from '../domain/grading/import-plan.js';
import { computeCourseGrades, type GradeItem, type StudentGrades } from '../domain/grading/index.js';
import { AppError, invalid } from '../errors.js';
import type { Ids } from '../runtime/ids.js';
import type { AssignmentRowValue, GradeValue, SubmissionValue } from '../schemas/content.js';
import type { GradesImportResultValue } from '../schemas/gradebook.js';
import { getAssignmentRow } from './assignments.js';
import type { Store } from './db.js';
import { loadSubmissionRecords } from './grade-cells.js';
import { loadSetup, publishedItems } from './gradebook.js';
import { gradedState, insertSubmission, writeGrade } from './submissions.js';
import { type Row, SUBMISSIONS } from './tables.js';
import { getUser, listStudents } from './users.js';

type Action = 'regrade' | 'grade' | 'create';

/** The staff view's grades of some students of a course (every grade counts), by student id. */
async function gradesOf(
  store: Store,
  courseId: string,
  items: GradeItem[],
  studentIds: string[],
  now: string,
  detail: boolean,
): Promise<Map<string, StudentGrades>> {
  const names = new Map((await listStudents(store, courseId)).map((s) => [s.id, s.name]));
  const students = studentIds.map((id) => ({ id, name: names.get(id) ?? id }));
  const records = await loadSubmissionRecords(
    store,
    courseId,
    items.map((it) => it.id),
    studentIds,
  );
  const grades = computeCourseGrades({ setup: await loadSetup(store, courseId), items, students, records, now, detail });
  return new Map(grades.students.map((g) => [g.studentId, g]));
}

/** The latest attempt of a student at an item, whatever its state. */
async function latestAttempt(store: Store, itemId: string, studentId: string): Promise<SubmissionValue | null> {
  const row = (await store.get('SELECT * FROM submissions WHERE assignment_id = ? AND student_id = ? ORDER BY attempt DESC LIMIT 1', itemId, studentId)) as
    | Row
    | undefined;
  return row ? SUBMISSIONS.fromRow(row) : null;
}

const actionOf = (latest: SubmissionValue | null): Action =>
  latest === null ? 'create' : latest.grade?.score !== null && latest.grade?.score !== undefined ? 'regrade' : 'grade';

/** The plan's identity: the same cells, values and actions give the same text. */
function fingerprint(changes: (PlannedCell & { action: Action })[]): string {
  const hash = createHash('sha256');
  for (const c of changes) hash.update(JSON.stringify([c.studentId, c.itemId, c.from, c.to, c.action]));
  return hash.digest('hex').slice(0, 32);
}

export async function importGrades(
  store: Store,
  courseId: string,
  body: ImportBody & { dryRun: boolean; expectedPlan?: string | undefined },
  at: { by: string; now: string; ids: Ids },
): Promise<GradesImportResultValue> {
  const run = async (tx: Store): Promise<GradesImportResultValue> => {
    const items = await publishedItems(tx, courseId);
    const itemIndex = new Map(items.map((it, i) => [it.id, i]));
    const enrolled = new Set((await listStudents(tx, courseId)).map((s) => s.id));
    const rowStudents = [...new Set(body.rows.map((r) => r.studentId).filter((id) => enrolled.has(id)))];
    const before = await gradesOf(tx, courseId, items, rowStudents, at.now, false);

    // The plan is pure: look up every assignment and person it will ask about first.
    const assignments = new Map<string, AssignmentRowValue | null>();
    for (const { itemId } of body.items) if (!assignments.has(itemId)) assignments.set(itemId, await getAssignmentRow(tx, itemId));
    const people = new Map<string, 'student' | 'other' | 'none'>();
    for (const { studentId } of body.rows)
      if (!people.has(studentId)) people.set(studentId, enrolled.has(studentId) ? 'student' : (await getUser(tx, studentId)) ? 'other' : 'none');
    const plan = planGradesImport(body, {
      courseId,
      assignment: (id) => {
        const a = assignments.get(id) ?? null;
        // Published but in a draft module: not in the gradebook (publishedItems), so not importable.
        return a && a.status === 'published' && !itemIndex.has(id) ? { ...a, status: 'in-draft-module' } : a;
      },
      person: (id) => people.get(id) ?? 'none',
      printed: (studentId, itemId) => before.get(studentId)?.cells[itemIndex.get(itemId)!] ?? null,
    });
    if (plan.problems.length > 0) {
      const n = plan.problems.length;
      throw invalid(
        plan.problems,
        n === 1 ? `${plan.problems[0]!.message}; nothing was written.` : `${n} cells or columns cannot be imported; nothing was written.`,
      );
    }

    const planned: (PlannedCell & { latest: SubmissionValue | null; action: Action })[] = [];
    for (const c of plan.changes) {
      const latest = await latestAttempt(tx, c.itemId, c.studentId);
      planned.push({ ...c, latest, action: actionOf(latest) });
    }
    const id = fingerprint(planned);
    if (body.expectedPlan !== undefined && body.expectedPlan !== id) {
      throw new AppError(
        'conflict',
        `The gradebook changed since this import was planned (it would now make ${planned.length} change${planned.length === 1 ? '' : 's'}); nothing was written. Plan it again.`,
        { plan: id },
      );
    }

    const written: ((typeof planned)[number] & { submissionId: string })[] = [];
    for (const c of planned) written.push({ ...c, submissionId: await write(tx, c, at) });
    const changedStudents = [...new Set(planned.map((c) => c.studentId))];
    const after = await gradesOf(tx, courseId, items, changedStudents, at.now, true);
    const titles = new Map(items.map((it) => [it.id, it.title]));
    const result: GradesImportResultValue = {
      dryRun: body.dryRun,
      plan: id,
      changes: written.map((c) => {
        const g = after.get(c.studentId)!;
        const detail = g.items?.find((d) => d.itemId === c.itemId);
        return {
          studentId: c.studentId,
          studentName: g.studentName,
          itemId: c.itemId,
          itemTitle: titles.get(c.itemId) ?? c.itemId,
          row: c.row,
          column: c.column,
          action: c.action,
          from: c.from,
          to: c.to,
          after: g.cells[itemIndex.get(c.itemId)!] ?? null,
          late: detail?.late ?? null,
          status: detail?.status ?? 'graded',
          submissionId: body.dryRun && c.action === 'create' ? null : c.submissionId,
        };
      }),
      unchanged: plan.unchanged,
      blank: plan.blank,
    };
    return result;
  };
  // A dry run meets every check and computes every figure the write would, then rolls back.
  return body.dryRun ? await store.rehearse(run) : await store.tx(run);
}

/** Write one change: regrade or grade the latest attempt, or create a graded submission. Answers its id. */
async function write(
  store: Store,
  c: PlannedCell & { latest: SubmissionValue | null; action: Action },
  at: { by: string; now: string; ids: Ids },
): Promise<string> {
  const graded = (base: GradeValue | null): GradeValue => ({
    score: c.to,
    criteria: base?.criteria ?? [],
    feedback: base?.feedback ?? '',
    feedbackOrigin: base?.feedbackOrigin ?? 'human',
    feedbackProvenance: base?.feedbackProvenance ?? null,
    gradedBy: at.by,
    gradedAt: at.now,
    releasedAt: base?.releasedAt ?? null,
  });
  if (c.latest !== null) {
    const grade = graded(c.latest.grade);
    await writeGrade(store, c.latest.id, gradedState(grade.releasedAt), grade);
    return c.latest.id;
  }
  // A score for work never submitted (a paper exam, say): dated at the due date when that
  // has passed, so it is never late, else now.
  const dueAt = (await getAssignmentRow(store, c.itemId))?.dueAt ?? null;
  const submittedAt = dueAt !== null && Date.parse(dueAt) < Date.parse(at.now) ? dueAt : at.now;
  return (
    await insertSubmission(store, {
      id: at.ids.next('sub'),
      assignmentId: c.itemId,
      studentId: c.studentId,
      attempt: 1,
      state: 'graded',
      text: null,
      fileId: null,
      link: null,
      submittedAt,
      grade: graded(null),
    })
  ).id;
}
