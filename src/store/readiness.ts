/** Reads and writes behind readiness: a course's whole content in bulk, rubrics, findings, attestations. */
import type { StoredBlockValue } from '../schemas/content.js';
import type { Store } from './db.js';
import {
  assignmentFromRow, type AssignmentRowValue, attestationFromRow, type AttestationValue, blockFromRow, findingFromRow, type FindingValue,
  lessonFromRow, type LessonValue, type Row,
} from './rows.js';

export interface CourseContent {
  lessons: LessonValue[];
  blocks: StoredBlockValue[];
  assignments: (AssignmentRowValue & { instructions: StoredBlockValue[] })[];
}

export function courseContent(store: Store, courseId: string): CourseContent {
  const lessons = (store.stmt('SELECT l.* FROM lessons l JOIN modules m ON m.id = l.module_id WHERE l.course_id = ? ORDER BY m.position, l.position, l.id').all(courseId) as Row[]).map(lessonFromRow);
  const blocks = (
    store.stmt('SELECT b.* FROM blocks b JOIN lessons l ON l.id = b.lesson_id WHERE l.course_id = ? ORDER BY b.lesson_id, b.position').all(courseId) as Row[]
  ).map(blockFromRow);
  const instructionRows = store
    .stmt('SELECT b.* FROM blocks b JOIN assignments a ON a.id = b.assignment_id WHERE a.course_id = ? ORDER BY b.assignment_id, b.position')
    .all(courseId) as Row[];
  const byAssignment = new Map<string, StoredBlockValue[]>();
  for (const r of instructionRows) {
    const list = byAssignment.get(r.assignment_id as string) ?? [];
    list.push(blockFromRow(r));
    byAssignment.set(r.assignment_id as string, list);
  }
  const assignments = (
    store.stmt('SELECT a.* FROM assignments a JOIN modules m ON m.id = a.module_id WHERE a.course_id = ? ORDER BY m.position, a.position, a.id').all(courseId) as Row[]
  ).map((r) => ({ ...assignmentFromRow(r), instructions: byAssignment.get(r.id as string) ?? [] }));
  return { lessons, blocks, assignments };
}

export function getStoredRubric<T>(store: Store, id: string): T | null {
  const row = store.stmt('SELECT body FROM rubrics WHERE id = ?').get(id) as { body: string } | undefined;
  return row ? (JSON.parse(row.body) as T) : null;
}

export function listStoredRubrics<T>(store: Store): T[] {
  return (store.stmt('SELECT body FROM rubrics ORDER BY id').all() as { body: string }[]).map((r) => JSON.parse(r.body) as T);
}

export function putRubric(store: Store, rubric: { id: string }): void {
  store.stmt('INSERT INTO rubrics (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body').run(rubric.id, JSON.stringify(rubric));
}

export function listFindings(store: Store, courseId: string): FindingValue[] {
  return (store.stmt('SELECT * FROM findings WHERE course_id = ? ORDER BY item_id').all(courseId) as Row[]).map(findingFromRow);
}

export function getFinding(store: Store, courseId: string, itemId: string): FindingValue | null {
  const row = store.stmt('SELECT * FROM findings WHERE course_id = ? AND item_id = ?').get(courseId, itemId) as Row | undefined;
  return row ? findingFromRow(row) : null;
}

export function putFinding(store: Store, f: FindingValue): void {
  store
    .stmt(
      `INSERT INTO findings (course_id, item_id, verdict, evidence, suggestion, provenance, state, reviewed_by, reviewed_at, reviewed_by_name)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(course_id, item_id) DO UPDATE SET verdict = excluded.verdict, evidence = excluded.evidence, suggestion = excluded.suggestion,
         provenance = excluded.provenance, state = excluded.state, reviewed_by = excluded.reviewed_by, reviewed_at = excluded.reviewed_at,
         reviewed_by_name = excluded.reviewed_by_name`,
    )
    .run(f.courseId, f.itemId, f.verdict, f.evidence, f.suggestion, f.provenance === null ? null : JSON.stringify(f.provenance), f.state, f.reviewedBy, f.reviewedAt, f.reviewedByName);
}

export function listAttestations(store: Store, courseId: string, rubricId: string): AttestationValue[] {
  return (store.stmt('SELECT * FROM attestations WHERE course_id = ? AND rubric_id = ? ORDER BY item_id').all(courseId, rubricId) as Row[]).map(attestationFromRow);
}

export function putAttestation(store: Store, a: AttestationValue): void {
  store
    .stmt(
      `INSERT INTO attestations (course_id, rubric_id, item_id, status, by, by_name, note, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(course_id, rubric_id, item_id) DO UPDATE SET status = excluded.status, by = excluded.by, by_name = excluded.by_name, note = excluded.note, at = excluded.at`,
    )
    .run(a.courseId, a.rubricId, a.itemId, a.status, a.by, a.byName, a.note, a.at);
}

export function deleteAttestation(store: Store, courseId: string, rubricId: string, itemId: string): boolean {
  return store.stmt('DELETE FROM attestations WHERE course_id = ? AND rubric_id = ? AND item_id = ?').run(courseId, rubricId, itemId).changes > 0;
}

/** The built-in rubric, or one imported into the store. */
export function rubricExists(store: Store, id: string): boolean {
  return id === 'course-essentials' || store.stmt('SELECT 1 AS x FROM rubrics WHERE id = ?').get(id) !== undefined;
}
