import type { StoredBlockValue } from '../schemas/content.js';
import { listBlocks } from './blocks.js';
import type { Store } from './db.js';
import { moveTo, openSlot } from './positions.js';
import { assignmentFromRow, type AssignmentRowValue, type Row } from './rows.js';

const ASSIGNMENTS = { table: 'assignments', parent: 'module_id' } as const;

export type AssignmentValue = AssignmentRowValue & { instructions: StoredBlockValue[] };

export function getAssignmentRow(store: Store, id: string): AssignmentRowValue | null {
  const row = store.stmt('SELECT * FROM assignments WHERE id = ?').get(id) as Row | undefined;
  return row ? assignmentFromRow(row) : null;
}

export function getAssignment(store: Store, id: string): AssignmentValue | null {
  const a = getAssignmentRow(store, id);
  return a ? { ...a, instructions: listBlocks(store, { assignmentId: id }) } : null;
}

/** A course's assignments: module position, then assignment position, then id. */
export function listCourseAssignments(store: Store, courseId: string, publishedOnly: boolean): AssignmentValue[] {
  const rows = store
    .stmt(
      `SELECT a.* FROM assignments a JOIN modules m ON m.id = a.module_id WHERE a.course_id = ? ${publishedOnly ? "AND a.status = 'published'" : ''}
       ORDER BY m.position, a.position, a.id`,
    )
    .all(courseId) as Row[];
  return rows.map((r) => ({ ...assignmentFromRow(r), instructions: listBlocks(store, { assignmentId: r.id as string }) }));
}

export function insertAssignment(store: Store, a: Omit<AssignmentRowValue, 'position'>, position?: number): AssignmentRowValue {
  const pos = openSlot(store, ASSIGNMENTS, a.moduleId, position);
  store
    .stmt(
      `INSERT INTO assignments (id, module_id, course_id, title, position, status, published_at, due_at, points, submission_type, category_id, rubric)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(a.id, a.moduleId, a.courseId, a.title, pos, a.status, a.publishedAt, a.dueAt, a.points, a.submissionType, a.categoryId, JSON.stringify(a.rubric));
  return { ...a, position: pos };
}

export function updateAssignmentRow(store: Store, before: AssignmentRowValue, after: AssignmentRowValue): void {
  if (after.position !== before.position) moveTo(store, ASSIGNMENTS, before.moduleId, before.id, before.position, after.position);
  store
    .stmt('UPDATE assignments SET title = ?, status = ?, published_at = ?, due_at = ?, points = ?, submission_type = ?, category_id = ?, rubric = ? WHERE id = ?')
    .run(after.title, after.status, after.publishedAt, after.dueAt, after.points, after.submissionType, after.categoryId, JSON.stringify(after.rubric), after.id);
}

export function countSubmissions(store: Store, assignmentId: string): number {
  return (store.stmt('SELECT COUNT(*) AS n FROM submissions WHERE assignment_id = ?').get(assignmentId) as { n: number }).n;
}

export function listAssignmentsOfModule(store: Store, moduleId: string): AssignmentValue[] {
  return (store.stmt('SELECT * FROM assignments WHERE module_id = ? ORDER BY position').all(moduleId) as Row[]).map((r) => ({
    ...assignmentFromRow(r),
    instructions: listBlocks(store, { assignmentId: r.id as string }),
  }));
}
