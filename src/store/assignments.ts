import { compareStrings } from '../domain/compare.js';
import { planInstructions } from '../domain/content/rules.js';
import { invalid } from '../errors.js';
import type { Ids } from '../runtime/ids.js';
import type { AssignmentRowValue, AssignmentValue, BlockInputValue } from '../schemas/content.js';
import { deleteInstructionBlocksExcept, getBlock, insertBlock, instructionsByAssignment, listBlocks, setBlockPosition, writeBlock } from './blocks.js';
import type { Store } from './db.js';
import { inListSlices, placeholders } from './in-lists.js';
import { moveTo, openSlot } from './positions.js';
import { ASSIGNMENTS, blockContentOf, insertRecord, type Row, updateRecord } from './tables.js';

const SIBLINGS = { table: 'assignments', parent: 'module_id' } as const;

export async function getAssignmentRow(store: Store, id: string): Promise<AssignmentRowValue | null> {
  const row = (await store.get('SELECT * FROM assignments WHERE id = ?', id)) as Row | undefined;
  return row ? ASSIGNMENTS.fromRow(row) : null;
}

/** The course of each of these assignments that exists (looked up a few hundred ids a query). */
export async function assignmentCourses(store: Store, ids: readonly string[]): Promise<Map<string, string>> {
  const courses = new Map<string, string>();
  for (const slice of inListSlices(ids)) {
    const rows = await store.all<{ id: string; course_id: string }>(
      `SELECT id, course_id FROM assignments WHERE id IN (${placeholders(slice.length)})`,
      ...slice,
    );
    for (const r of rows) courses.set(r.id, r.course_id);
  }
  return courses;
}

export async function getAssignment(store: Store, id: string): Promise<AssignmentValue | null> {
  const a = await getAssignmentRow(store, id);
  return a ? { ...a, instructions: await listBlocks(store, { assignmentId: id }) } : null;
}

/** A course's assignments: module position, then assignment position, then id (published only: in published modules too). */
export async function listCourseAssignments(store: Store, courseId: string, publishedOnly: boolean): Promise<AssignmentValue[]> {
  // Ordered here rather than by ORDER BY: SQLite's sorter would carry every whole row (the
  // rubric's JSON included) through a temporary b-tree, most of the statement's cost.
  const rows = (await store.all(
    `SELECT a.*, m.position AS module_position FROM assignments a JOIN modules m ON m.id = a.module_id
       WHERE a.course_id = ? ${publishedOnly ? "AND a.status = 'published' AND m.status = 'published'" : ''}`,
    courseId,
  )) as Row[];
  rows.sort(
    (x, y) =>
      (x.module_position as number) - (y.module_position as number) ||
      (x.position as number) - (y.position as number) ||
      compareStrings(x.id as string, y.id as string),
  );
  const instructions = await instructionsByAssignment(store, { courseId });
  return rows.map((r) => ({ ...ASSIGNMENTS.fromRow(r), instructions: instructions.get(r.id as string) ?? [] }));
}

export async function insertAssignment(store: Store, a: Omit<AssignmentRowValue, 'position'>, position?: number): Promise<AssignmentRowValue> {
  const pos = await openSlot(store, SIBLINGS, a.moduleId, position);
  return insertRecord(store, ASSIGNMENTS, { ...a, position: pos });
}

export async function updateAssignmentRow(store: Store, before: AssignmentRowValue, after: AssignmentRowValue): Promise<void> {
  if (after.position !== before.position) await moveTo(store, SIBLINGS, before.moduleId, before.id, before.position, after.position);
  await updateRecord(store, ASSIGNMENTS, after);
}

export async function countSubmissions(store: Store, assignmentId: string): Promise<number> {
  return ((await store.get('SELECT COUNT(*) AS n FROM submissions WHERE assignment_id = ?', assignmentId)) as { n: number }).n;
}

export async function listAssignmentsOfModule(store: Store, moduleId: string): Promise<AssignmentValue[]> {
  const rows = (await store.all('SELECT * FROM assignments WHERE module_id = ? ORDER BY position', moduleId)) as Row[];
  const instructions = await instructionsByAssignment(store, { moduleId });
  return rows.map((r) => ({ ...ASSIGNMENTS.fromRow(r), instructions: instructions.get(r.id as string) ?? [] }));
}

/**
 * Replace an assignment's instruction list with the given one (PATCH semantics of
 * content-and-people.md): a block given with a stored id keeps its identity, a changed one
 * becomes a human edit that keeps the old content in `previous`, blocks without an id are
 * new, stored blocks not given are removed. Every path that writes instructions calls this.
 */
export async function replaceInstructions(store: Store, assignmentId: string, given: BlockInputValue[], at: { now: string; ids: Ids }): Promise<void> {
  const stored = (await listBlocks(store, { assignmentId })).map((b) => ({ id: b.id, content: blockContentOf(b) }));
  const { plan, problems } = planInstructions(stored, given);
  if (problems.length > 0) throw invalid(problems);
  await deleteInstructionBlocksExcept(store, assignmentId, new Set(plan.flatMap((p) => (p.kind === 'new' ? [] : [p.id]))));
  // Park kept blocks at negative positions first so the new order never collides.
  for (const p of plan) if (p.kind !== 'new') await setBlockPosition(store, p.id, -1 - p.position);
  for (const p of plan) {
    if (p.kind === 'keep') await setBlockPosition(store, p.id, p.position);
    else if (p.kind === 'edit') {
      const old = (await getBlock(store, p.id))!;
      await writeBlock(store, p.id, { content: p.content, origin: 'human', aiState: null, provenance: null, previous: p.previous, updatedAt: at.now });
      await setBlockPosition(store, old.id, p.position);
    } else {
      await insertBlock(
        store,
        { assignmentId },
        { id: at.ids.next('blk'), content: p.content, origin: 'human', aiState: null, provenance: null, previous: null, updatedAt: at.now },
        p.position,
      );
    }
  }
}
