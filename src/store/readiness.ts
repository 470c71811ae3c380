/** Reads and writes behind readiness: a course's whole content in bulk, rubrics, findings, attestations. */

import { assertPublishable, computeReadiness, DEFAULT_RUBRIC, type ReadinessReport, type Rubric } from '../domain/readiness/index.js';
import { AppError, notFound } from '../errors.js';
import type { AssignmentValue, CourseValue, LessonValue, StoredBlockValue } from '../schemas/content.js';
import type { AttestationValue, FindingValue, StandardsRubricValue } from '../schemas/readiness.js';
import { getCourse, listModules } from './courses.js';
import type { Store } from './db.js';
import { openSetupChecks } from './gradebook.js';
import { ASSIGNMENTS, ATTESTATIONS, BLOCKS, blockView, FINDINGS, insertRecord, LESSONS, type Row, RUBRICS, recordExists } from './tables.js';

export interface CourseContent {
  lessons: LessonValue[];
  blocks: StoredBlockValue[];
  assignments: AssignmentValue[];
}

export function courseContent(store: Store, courseId: string): CourseContent {
  const lessons = (
    store
      .stmt('SELECT l.* FROM lessons l JOIN modules m ON m.id = l.module_id WHERE l.course_id = ? ORDER BY m.position, l.position, l.id')
      .all(courseId) as Row[]
  ).map(LESSONS.fromRow);
  const blocks = (
    store.stmt('SELECT b.* FROM blocks b JOIN lessons l ON l.id = b.lesson_id WHERE l.course_id = ? ORDER BY b.lesson_id, b.position').all(courseId) as Row[]
  ).map((r) => blockView(BLOCKS.fromRow(r)));
  const instructionRows = store
    .stmt('SELECT b.* FROM blocks b JOIN assignments a ON a.id = b.assignment_id WHERE a.course_id = ? ORDER BY b.assignment_id, b.position')
    .all(courseId) as Row[];
  const byAssignment = new Map<string, StoredBlockValue[]>();
  for (const r of instructionRows) {
    const list = byAssignment.get(r.assignment_id as string) ?? [];
    list.push(blockView(BLOCKS.fromRow(r)));
    byAssignment.set(r.assignment_id as string, list);
  }
  const assignments = (
    store
      .stmt('SELECT a.* FROM assignments a JOIN modules m ON m.id = a.module_id WHERE a.course_id = ? ORDER BY m.position, a.position, a.id')
      .all(courseId) as Row[]
  ).map((r) => ({ ...ASSIGNMENTS.fromRow(r), instructions: byAssignment.get(r.id as string) ?? [] }));
  return { lessons, blocks, assignments };
}

export function getStoredRubric(store: Store, id: string): StandardsRubricValue | null {
  const row = store.stmt('SELECT * FROM rubrics WHERE id = ?').get(id) as Row | undefined;
  return row ? RUBRICS.fromRow(row) : null;
}

export function listStoredRubrics(store: Store): StandardsRubricValue[] {
  return (store.stmt('SELECT * FROM rubrics ORDER BY id').all() as Row[]).map(RUBRICS.fromRow);
}

export function putRubric(store: Store, rubric: StandardsRubricValue): void {
  insertRecord(store, RUBRICS, rubric, 'upsert');
}

export function listFindings(store: Store, courseId: string): FindingValue[] {
  return (store.stmt('SELECT * FROM findings WHERE course_id = ? ORDER BY item_id').all(courseId) as Row[]).map(FINDINGS.fromRow);
}

export function getFinding(store: Store, courseId: string, itemId: string): FindingValue | null {
  const row = store.stmt('SELECT * FROM findings WHERE course_id = ? AND item_id = ?').get(courseId, itemId) as Row | undefined;
  return row ? FINDINGS.fromRow(row) : null;
}

export function putFinding(store: Store, f: FindingValue): void {
  insertRecord(store, FINDINGS, f, 'upsert');
}

export function listAttestations(store: Store, courseId: string, rubricId: string): AttestationValue[] {
  return (store.stmt('SELECT * FROM attestations WHERE course_id = ? AND rubric_id = ? ORDER BY item_id').all(courseId, rubricId) as Row[]).map(
    ATTESTATIONS.fromRow,
  );
}

export function putAttestation(store: Store, a: AttestationValue): void {
  insertRecord(store, ATTESTATIONS, a, 'upsert');
}

export function deleteAttestation(store: Store, courseId: string, rubricId: string, itemId: string): boolean {
  return store.stmt('DELETE FROM attestations WHERE course_id = ? AND rubric_id = ? AND item_id = ?').run(courseId, rubricId, itemId).changes > 0;
}

/** The built-in rubric, or one imported into the store. */
export function rubricExists(store: Store, id: string): boolean {
  return id === DEFAULT_RUBRIC.id || recordExists(store, RUBRICS, [id]);
}

export function rubricById(store: Store, id: string): Rubric | null {
  return id === DEFAULT_RUBRIC.id ? DEFAULT_RUBRIC : getStoredRubric(store, id);
}

/** A course and its installed rubric: not-found for either. */
export function courseWithRubric(store: Store, courseId: string): { course: CourseValue; rubric: Rubric } {
  const course = getCourse(store, courseId);
  if (!course) throw notFound('Course', courseId);
  const rubric = rubricById(store, course.rubricId);
  if (!rubric) throw new AppError('not-found', `The course's rubric ${JSON.stringify(course.rubricId)} is not installed.`);
  return { course, rubric };
}

/** The readiness report of a course now, with the rubric and course it was computed for. */
export function courseReadiness(store: Store, courseId: string, now: string): { report: ReadinessReport; rubric: Rubric; course: CourseValue } {
  const { course, rubric } = courseWithRubric(store, courseId);
  const content = courseContent(store, courseId);
  const report = computeReadiness({
    rubric,
    course,
    modules: listModules(store, courseId),
    lessons: content.lessons,
    blocks: content.blocks,
    assignments: content.assignments,
    openSetupChecks: openSetupChecks(store, courseId, now),
    findings: listFindings(store, courseId),
    attestations: listAttestations(store, courseId, rubric.id),
    accessFloor: course.accessFloor,
    now,
  });
  return { report, rubric, course };
}

/** The publish gate over the stored course, now (throws not-ready naming what blocks it). */
export function assertCoursePublishable(store: Store, courseId: string, now: string): CourseValue {
  const { report, rubric, course } = courseReadiness(store, courseId, now);
  assertPublishable(report, rubric, course.accessFloor);
  return course;
}
