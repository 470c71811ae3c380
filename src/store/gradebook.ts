/**
 * Gradebook reads shaped for the grading engine (published items, submissions of the
 * course's students) and the final-grade overrides with their append-only history.
 */
import { nextCount } from '../domain/counters.js';
import { computeSetupChecks } from '../domain/grading/checks.js';
import type { GradeItem, GradeSubmission } from '../domain/grading/types.js';
import { AppError } from '../errors.js';
import { MAX_EXPECTED_VERSION } from '../schemas/common.js';
import type { FinalGradeHistoryValue, FinalGradeValue } from '../schemas/final-grades.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';
import type { CourseRoleValue } from '../schemas/people.js';
import type { Store } from './db.js';
import { getGradebookSetup } from './gradebook-setups.js';
import { inListSlices, placeholders } from './in-lists.js';
import { FINAL_GRADE_HISTORY, FINAL_GRADES, insertRecord, json, type Row } from './tables.js';
import { getEnrollment } from './users.js';

/** A course's setup; every course has one from the moment it exists. */
export async function loadSetup(store: Store, courseId: string): Promise<GradebookSetupValue> {
  const setup = await getGradebookSetup(store, courseId);
  if (!setup) throw noSetup(courseId);
  return setup;
}

const noSetup = (courseId: string) => new AppError('not-found', `Course ${JSON.stringify(courseId)} has no gradebook setup.`);

/** Open (not dismissed) setup checks of a course now: the gradebook's and readiness item 3.1's. */
export async function openSetupChecks(store: Store, courseId: string, now: string) {
  return computeSetupChecks({ setup: await loadSetup(store, courseId), items: await publishedItems(store, courseId), now }).filter((c) => !c.dismissed);
}

// The grading engine's input shape: the store returns exactly what computeCourseGrades takes.
export type GradeItemRow = GradeItem;

/**
 * The gradebook's items: the course's published assignments that students can see, so in a
 * published module too (a student can neither see nor hand in one in a draft module, and
 * it must not count against them as missing), in course item order. Every view of grades,
 * the export, the import and the setup checks take their items from here.
 */
export async function publishedItems(store: Store, courseId: string): Promise<GradeItemRow[]> {
  return (await store.all(
    `SELECT a.id, a.title, a.category_id AS "categoryId", a.points, a.due_at AS "dueAt", a.module_id AS "moduleId",
              m.position AS "modulePosition", a.position
       FROM assignments a JOIN modules m ON m.id = a.module_id
       WHERE a.course_id = ? AND a.status = 'published' AND m.status = 'published'
       ORDER BY m.position, m.id, a.position, a.id`,
    courseId,
  )) as GradeItemRow[];
}

/**
 * Submissions to the course's assignments (any status), of the given students or of all,
 * handed to `take` in batches (per assignment for a whole course, per few hundred students
 * otherwise) so that a 10,000 x 200 course never sits in memory as two million objects.
 */
export async function courseSubmissions(
  store: Store,
  courseId: string,
  studentIds: readonly string[] | null,
  take: (batch: GradeSubmission[]) => void,
): Promise<void> {
  const columns = `s.assignment_id AS "assignmentId", s.student_id AS "studentId", s.attempt, s.submitted_at AS "submittedAt", s.score, s.released_at AS "releasedAt"`;
  if (studentIds === null) {
    const assignments = await store.all<{ id: string }>('SELECT id FROM assignments WHERE course_id = ? ORDER BY id', courseId);
    for (const a of assignments) take(await store.all<GradeSubmission>(`SELECT ${columns} FROM submissions s WHERE s.assignment_id = ?`, a.id));
    return;
  }
  for (const slice of inListSlices(studentIds)) {
    take(
      await store.all<GradeSubmission>(
        `SELECT ${columns} FROM submissions s JOIN assignments a ON a.id = s.assignment_id
         WHERE a.course_id = ? AND s.student_id IN (${placeholders(slice.length)})`,
        courseId,
        ...slice,
      ),
    );
  }
}

export async function getFinalGrade(store: Store, courseId: string, studentId: string): Promise<FinalGradeValue | null> {
  const row = (await store.get('SELECT * FROM final_grades WHERE course_id = ? AND student_id = ?', courseId, studentId)) as Row | undefined;
  return row ? FINAL_GRADES.fromRow(row) : null;
}

export async function listFinalGrades(store: Store, courseId: string): Promise<FinalGradeValue[]> {
  return ((await store.all('SELECT * FROM final_grades WHERE course_id = ? ORDER BY student_id', courseId)) as Row[]).map(FINAL_GRADES.fromRow);
}

/**
 * The overrides of the given students alone, in no particular order: what a page of the
 * grades view shows. A course's every override is 10,000 rows at most, 11 to 24 ms to read
 * and map; a page of 100 students reads its own in well under one.
 */
export async function listFinalGradesOf(store: Store, courseId: string, studentIds: readonly string[]): Promise<FinalGradeValue[]> {
  const found: FinalGradeValue[] = [];
  for (const slice of inListSlices(studentIds)) {
    const rows = (await store.all(
      `SELECT * FROM final_grades WHERE course_id = ? AND student_id IN (${placeholders(slice.length)})`,
      courseId,
      ...slice,
    )) as Row[];
    for (const row of rows) found.push(FINAL_GRADES.fromRow(row));
  }
  return found;
}

export async function putFinalGrade(store: Store, f: FinalGradeValue): Promise<void> {
  await insertRecord(store, FINAL_GRADES, f, 'upsert');
}

export async function appendFinalGradeHistory(store: Store, h: FinalGradeHistoryValue): Promise<void> {
  await insertRecord(store, FINAL_GRADE_HISTORY, h);
}

export async function finalGradeHistory(store: Store, courseId: string, studentId: string): Promise<FinalGradeHistoryValue[]> {
  return (
    (await store.all('SELECT * FROM final_grade_history WHERE course_id = ? AND student_id = ? ORDER BY version, seq', courseId, studentId)) as Row[]
  ).map(FINAL_GRADE_HISTORY.fromRow);
}

/** Whether the student's history already holds an entry with this version (import never appends one twice). */
export async function hasFinalGradeHistoryVersion(store: Store, courseId: string, studentId: string, version: number): Promise<boolean> {
  return (
    (await store.get('SELECT 1 AS x FROM final_grade_history WHERE course_id = ? AND student_id = ? AND version = ?', courseId, studentId, version)) !==
    undefined
  );
}

/** The highest version the student's history holds (0 when none). */
export async function latestFinalGradeHistoryVersion(store: Store, courseId: string, studentId: string): Promise<number> {
  return (
    (await store.get('SELECT COALESCE(MAX(version), 0) AS v FROM final_grade_history WHERE course_id = ? AND student_id = ?', courseId, studentId)) as {
      v: number;
    }
  ).v;
}

/** A final grade is a student's: anyone else (not enrolled, or enrolled as staff) is not-found. */
function assertStudent(studentId: string, role: string | null | undefined): void {
  if (role !== 'student') throw new AppError('not-found', `Student ${JSON.stringify(studentId)} is not enrolled in this course.`);
}

/** The student's final-grade routes answer only for a student of the course (assertStudent). */
export async function requireStudent(store: Store, courseId: string, studentId: string): Promise<void> {
  assertStudent(studentId, (await getEnrollment(store, courseId, studentId))?.role);
}

/** A set or clear of a student's final-grade override (PUT .../students/{studentId}/final). */
export interface FinalGradeChange {
  courseId: string;
  studentId: string;
  /** Null clears that part of the override. */
  letter: string | null;
  percent: number | null;
  reason: string;
  /** The version the caller last saw (0: no override yet). */
  expectedVersion: number;
  by: string;
  at: string;
}

/**
 * Set or clear a student's final-grade override, in one transaction: the student must be
 * enrolled as a student (not-found), a letter must be one of the course's scheme (invalid),
 * and expectedVersion must be the override's version (conflict). The change becomes the
 * next version, with its history entry.
 */
export async function setFinalGrade(store: Store, change: FinalGradeChange): Promise<{ ok: true; version: number }> {
  const { courseId, studentId, letter } = change;
  return store.tx(async (tx) => {
    const { enrolledAs, schemeLetters, current } = await finalGradeContext(tx, courseId, studentId);
    assertStudent(studentId, enrolledAs);
    if (!schemeLetters) throw noSetup(courseId);
    if (letter !== null && !schemeLetters.includes(letter)) {
      const letters = schemeLetters.join(', ');
      throw new AppError('invalid', `letter: ${JSON.stringify(letter)} is not a letter of the course's scheme (${letters})`, [
        { path: 'letter', message: `must be one of ${letters}` },
      ]);
    }
    const currentVersion = current?.version ?? 0;
    if (change.expectedVersion !== currentVersion) {
      throw new AppError('conflict', `The override is at version ${currentVersion}, not ${change.expectedVersion}.`, { currentVersion });
    }
    const version = nextCount(currentVersion, "The student's override version", MAX_EXPECTED_VERSION);
    await putFinalGrade(tx, {
      courseId,
      studentId,
      letter,
      percent: change.percent,
      reason: change.reason,
      version,
      updatedBy: change.by,
      updatedAt: change.at,
    });
    await appendFinalGradeHistory(tx, {
      courseId,
      studentId,
      version,
      oldLetter: current?.letter ?? null,
      oldPercent: current?.percent ?? null,
      newLetter: letter,
      newPercent: change.percent,
      reason: change.reason,
      by: change.by,
      at: change.at,
    });
    return { ok: true, version };
  });
}

/**
 * What a set of a final grade reads, in one statement rather than three (a `PUT` of a final
 * grade is a few statements, and each costs about as much as the others): the student's
 * role in the course, the letters of the course's grading scheme (null without a setup),
 * and the current override. The letters are kept beside the setup (migration 6) so that a
 * write neither extracts them from the whole setup document (about 1.2 KB) nor parses its
 * bands.
 */
async function finalGradeContext(
  store: Store,
  courseId: string,
  studentId: string,
): Promise<{ enrolledAs: CourseRoleValue | null; schemeLetters: string[] | null; current: FinalGradeValue | null }> {
  const row = (await store.get(FINAL_GRADE_CONTEXT, courseId, studentId, courseId, courseId, studentId)) as Row;
  return {
    enrolledAs: (row.enrolled_as as CourseRoleValue | null) ?? null,
    schemeLetters: json<string[] | null>(row.scheme_letters, null),
    current: row.course_id === null || row.course_id === undefined ? null : FINAL_GRADES.fromRow(row),
  };
}

const FINAL_GRADE_CONTEXT = `SELECT (SELECT role FROM enrollments WHERE course_id = ? AND user_id = ?) AS enrolled_as,
            (SELECT letters FROM gradebook_setups WHERE course_id = ?) AS scheme_letters,
            f.*
       FROM (SELECT 1 AS one) o LEFT JOIN final_grades f ON f.course_id = ? AND f.student_id = ?`;
