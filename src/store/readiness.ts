/** Reads and writes behind readiness: a course's whole content in bulk, findings, attestations (rubrics: rubrics.ts). */

import { assertPublishable, computeReadiness, type ReadinessReport, type Rubric } from '../domain/readiness/index.js';
import { AppError, notFound } from '../errors.js';
import type { AssignmentValue, LessonValue, StoredBlockValue } from '../schemas/content.js';
import type { CourseValue } from '../schemas/courses.js';
import type { AttestationValue, FindingValue } from '../schemas/readiness.js';
import { getCourse, listModules } from './courses.js';
import type { Store } from './db.js';
import { openSetupChecks } from './gradebook.js';
import { rubricById } from './rubrics.js';
import { ASSIGNMENTS, ATTESTATIONS, BLOCKS, blockView, FINDINGS, insertRecord, LESSONS, type Row } from './tables.js';

export interface CourseContent {
  lessons: LessonValue[];
  blocks: StoredBlockValue[];
  assignments: AssignmentValue[];
}

export async function courseContent(store: Store, courseId: string): Promise<CourseContent> {
  const lessons = (
    (await store.all(
      'SELECT l.* FROM lessons l JOIN modules m ON m.id = l.module_id WHERE l.course_id = ? ORDER BY m.position, l.position, l.id',
      courseId,
    )) as Row[]
  ).map(LESSONS.fromRow);
  const blocks = (
    (await store.all('SELECT b.* FROM blocks b JOIN lessons l ON l.id = b.lesson_id WHERE l.course_id = ? ORDER BY b.lesson_id, b.position', courseId)) as Row[]
  ).map((r) => blockView(BLOCKS.fromRow(r)));
  const instructionRows = (await store.all(
    'SELECT b.* FROM blocks b JOIN assignments a ON a.id = b.assignment_id WHERE a.course_id = ? ORDER BY b.assignment_id, b.position',
    courseId,
  )) as Row[];
  const byAssignment = new Map<string, StoredBlockValue[]>();
  for (const r of instructionRows) {
    const list = byAssignment.get(r.assignment_id as string) ?? [];
    list.push(blockView(BLOCKS.fromRow(r)));
    byAssignment.set(r.assignment_id as string, list);
  }
  const assignments = (
    (await store.all(
      'SELECT a.* FROM assignments a JOIN modules m ON m.id = a.module_id WHERE a.course_id = ? ORDER BY m.position, a.position, a.id',
      courseId,
    )) as Row[]
  ).map((r) => ({ ...ASSIGNMENTS.fromRow(r), instructions: byAssignment.get(r.id as string) ?? [] }));
  return { lessons, blocks, assignments };
}

export async function listFindings(store: Store, courseId: string): Promise<FindingValue[]> {
  return ((await store.all('SELECT * FROM findings WHERE course_id = ? ORDER BY item_id', courseId)) as Row[]).map(FINDINGS.fromRow);
}

export async function getFinding(store: Store, courseId: string, itemId: string): Promise<FindingValue | null> {
  const row = (await store.get('SELECT * FROM findings WHERE course_id = ? AND item_id = ?', courseId, itemId)) as Row | undefined;
  return row ? FINDINGS.fromRow(row) : null;
}

export async function putFinding(store: Store, f: FindingValue): Promise<void> {
  await insertRecord(store, FINDINGS, f, 'upsert');
}

export async function listAttestations(store: Store, courseId: string, rubricId: string): Promise<AttestationValue[]> {
  return ((await store.all('SELECT * FROM attestations WHERE course_id = ? AND rubric_id = ? ORDER BY item_id', courseId, rubricId)) as Row[]).map(
    ATTESTATIONS.fromRow,
  );
}

export async function putAttestation(store: Store, a: AttestationValue): Promise<void> {
  await insertRecord(store, ATTESTATIONS, a, 'upsert');
}

export async function deleteAttestation(store: Store, courseId: string, rubricId: string, itemId: string): Promise<boolean> {
  return (await store.run('DELETE FROM attestations WHERE course_id = ? AND rubric_id = ? AND item_id = ?', courseId, rubricId, itemId)).changes > 0;
}

/** A course and its installed rubric: not-found for either. */
export async function courseWithRubric(store: Store, courseId: string): Promise<{ course: CourseValue; rubric: Rubric }> {
  const course = await getCourse(store, courseId);
  if (!course) throw notFound('Course', courseId);
  const rubric = await rubricById(store, course.rubricId);
  if (!rubric) throw new AppError('not-found', `The course's rubric ${JSON.stringify(course.rubricId)} is not installed.`);
  return { course, rubric };
}

/** The readiness report of a course now, with the rubric and course it was computed for. */
export async function courseReadiness(store: Store, courseId: string, now: string): Promise<{ report: ReadinessReport; rubric: Rubric; course: CourseValue }> {
  const { course, rubric } = await courseWithRubric(store, courseId);
  const content = await courseContent(store, courseId);
  const report = computeReadiness({
    rubric,
    course,
    modules: await listModules(store, courseId),
    lessons: content.lessons,
    blocks: content.blocks,
    assignments: content.assignments,
    openSetupChecks: await openSetupChecks(store, courseId, now),
    findings: await listFindings(store, courseId),
    attestations: await listAttestations(store, courseId, rubric.id),
    accessFloor: course.accessFloor,
    now,
  });
  return { report, rubric, course };
}

/** The publish gate over the stored course, now (throws not-ready naming what blocks it). */
export async function assertCoursePublishable(store: Store, courseId: string, now: string): Promise<CourseValue> {
  const { report, rubric, course } = await courseReadiness(store, courseId, now);
  assertPublishable(report, rubric, course.accessFloor);
  return course;
}
