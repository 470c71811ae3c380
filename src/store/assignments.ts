import { planInstructions } from '../domain/content/rules.js';
import { invalid } from '../errors.js';
import type { Ids } from '../runtime/ids.js';
import type { AssignmentRowValue, AssignmentValue, BlockInputValue } from '../schemas/content.js';
import { deleteInstructionBlocksExcept, getBlock, insertBlock, listBlocks, setBlockPosition, writeBlock } from './blocks.js';
import type { Store } from './db.js';
import { moveTo, openSlot } from './positions.js';
import { ASSIGNMENTS, blockContentOf, insertRecord, type Row, updateRecord } from './tables.js';

const SIBLINGS = { table: 'assignments', parent: 'module_id' } as const;

export function getAssignmentRow(store: Store, id: string): AssignmentRowValue | null {
  const row = store.stmt('SELECT * FROM assignments WHERE id = ?').get(id) as Row | undefined;
  return row ? ASSIGNMENTS.fromRow(row) : null;
}

export function getAssignment(store: Store, id: string): AssignmentValue | null {
  const a = getAssignmentRow(store, id);
  return a ? { ...a, instructions: listBlocks(store, { assignmentId: id }) } : null;
}

/** A course's assignments: module position, then assignment position, then id (published only: in published modules too). */
export function listCourseAssignments(store: Store, courseId: string, publishedOnly: boolean): AssignmentValue[] {
  const rows = store
    .stmt(
      `SELECT a.* FROM assignments a JOIN modules m ON m.id = a.module_id WHERE a.course_id = ? ${publishedOnly ? "AND a.status = 'published' AND m.status = 'published'" : ''}
       ORDER BY m.position, a.position, a.id`,
    )
    .all(courseId) as Row[];
  return rows.map((r) => ({ ...ASSIGNMENTS.fromRow(r), instructions: listBlocks(store, { assignmentId: r.id as string }) }));
}

export function insertAssignment(store: Store, a: Omit<AssignmentRowValue, 'position'>, position?: number): AssignmentRowValue {
  const pos = openSlot(store, SIBLINGS, a.moduleId, position);
  return insertRecord(store, ASSIGNMENTS, { ...a, position: pos });
}

export function updateAssignmentRow(store: Store, before: AssignmentRowValue, after: AssignmentRowValue): void {
  if (after.position !== before.position) moveTo(store, SIBLINGS, before.moduleId, before.id, before.position, after.position);
  updateRecord(store, ASSIGNMENTS, after);
}

export function countSubmissions(store: Store, assignmentId: string): number {
  return (store.stmt('SELECT COUNT(*) AS n FROM submissions WHERE assignment_id = ?').get(assignmentId) as { n: number }).n;
}

export function listAssignmentsOfModule(store: Store, moduleId: string): AssignmentValue[] {
  return (store.stmt('SELECT * FROM assignments WHERE module_id = ? ORDER BY position').all(moduleId) as Row[]).map((r) => ({
    ...ASSIGNMENTS.fromRow(r),
    instructions: listBlocks(store, { assignmentId: r.id as string }),
  }));
}

/**
 * Replace an assignment's instruction list with the given one (PATCH semantics of
 * content-and-people.md): a block given with a stored id keeps its identity, a changed one
 * becomes a human edit that keeps the old content in `previous`, blocks without an id are
 * new, stored blocks not given are removed. Every path that writes instructions calls this.
 */
export function replaceInstructions(store: Store, assignmentId: string, given: BlockInputValue[], at: { now: string; ids: Ids }): void {
  const stored = listBlocks(store, { assignmentId }).map((b) => ({ id: b.id, content: blockContentOf(b) }));
  const { plan, problems } = planInstructions(stored, given);
  if (problems.length > 0) throw invalid(problems);
  deleteInstructionBlocksExcept(store, assignmentId, new Set(plan.flatMap((p) => (p.kind === 'new' ? [] : [p.id]))));
  // Park kept blocks at negative positions first so the new order never collides.
  for (const p of plan) if (p.kind !== 'new') setBlockPosition(store, p.id, -1 - p.position);
  for (const p of plan) {
    if (p.kind === 'keep') setBlockPosition(store, p.id, p.position);
    else if (p.kind === 'edit') {
      const old = getBlock(store, p.id)!;
      writeBlock(store, p.id, { content: p.content, origin: 'human', aiState: null, provenance: null, previous: p.previous, updatedAt: at.now });
      setBlockPosition(store, old.id, p.position);
    } else {
      insertBlock(
        store,
        { assignmentId },
        { id: at.ids.next('blk'), content: p.content, origin: 'human', aiState: null, provenance: null, previous: null, updatedAt: at.now },
        p.position,
      );
    }
  }
}
