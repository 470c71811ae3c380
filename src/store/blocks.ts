/** Blocks: lesson content and assignment instructions, with their AI review state. */
import type { BlockContentValue, StoredBlockValue } from '../schemas/content.js';
import type { Store } from './db.js';
import { inListSlices, placeholders } from './in-lists.js';
import { closeGap, moveTo, openSlot, type Sequence } from './positions.js';
import { BLOCKS, type BlockRecord, blockView, insertRecord, type Row, updateRecord } from './tables.js';

export type BlockParent = { lessonId: string } | { assignmentId: string };

/** The sequence a block's position counts in: its lesson's blocks, or its assignment's instructions. */
export const seqOf = (parent: BlockParent): Sequence =>
  'lessonId' in parent ? { table: 'blocks', parent: 'lesson_id' } : { table: 'blocks', parent: 'assignment_id' };
export const parentId = (parent: BlockParent) => ('lessonId' in parent ? parent.lessonId : parent.assignmentId);

/** A block with where it sits: the lesson's, or the assignment's (instructions). */
export type BlockRow = BlockRecord;

export async function getBlock(store: Store, id: string): Promise<BlockRow | null> {
  const row = (await store.get('SELECT * FROM blocks WHERE id = ?', id)) as Row | undefined;
  return row ? BLOCKS.fromRow(row) : null;
}

/** Where each of these block ids is stored (its lesson, or its assignment for an instruction); absent ids are left out. */
export async function blockParents(store: Store, ids: readonly string[]): Promise<Map<string, BlockParent>> {
  const parents = new Map<string, BlockParent>();
  for (const slice of inListSlices([...new Set(ids)])) {
    const rows = await store.all<{ id: string; lesson_id: string | null; assignment_id: string | null }>(
      `SELECT id, lesson_id, assignment_id FROM blocks WHERE id IN (${placeholders(slice.length)})`,
      ...slice,
    );
    for (const r of rows) parents.set(r.id, r.lesson_id !== null ? { lessonId: r.lesson_id } : { assignmentId: r.assignment_id! });
  }
  return parents;
}

export async function listBlocks(store: Store, parent: BlockParent): Promise<StoredBlockValue[]> {
  const sql =
    'lessonId' in parent ? 'SELECT * FROM blocks WHERE lesson_id = ? ORDER BY position' : 'SELECT * FROM blocks WHERE assignment_id = ? ORDER BY position';
  return ((await store.all(sql, parentId(parent))) as Row[]).map((r) => blockView(BLOCKS.fromRow(r)));
}

/**
 * The instructions of every assignment of a course or a module, in one statement (a list of
 * assignments would otherwise ask once per assignment): assignment id -> its blocks in order.
 */
export async function instructionsByAssignment(store: Store, of: { courseId: string } | { moduleId: string }): Promise<Map<string, StoredBlockValue[]>> {
  // Grouped and ordered here rather than by ORDER BY, whose sorter would carry every whole
  // row (the blocks' JSON) through a temporary b-tree. Positions are unique per assignment.
  const rows = (await store.all(
    `SELECT b.* FROM blocks b JOIN assignments a ON a.id = b.assignment_id WHERE ${'courseId' in of ? 'a.course_id' : 'a.module_id'} = ?`,
    'courseId' in of ? of.courseId : of.moduleId,
  )) as Row[];
  rows.sort((x, y) => (x.position as number) - (y.position as number));
  const byAssignment = new Map<string, StoredBlockValue[]>();
  for (const row of rows) {
    const key = row.assignment_id as string;
    const list = byAssignment.get(key) ?? [];
    if (list.length === 0) byAssignment.set(key, list);
    list.push(blockView(BLOCKS.fromRow(row)));
  }
  return byAssignment;
}

/** What a block is apart from where it sits: its content and review state. */
export interface BlockBody {
  content: BlockContentValue;
  origin: StoredBlockValue['origin'];
  aiState: StoredBlockValue['aiState'];
  provenance: StoredBlockValue['provenance'];
  previous: StoredBlockValue['previous'];
  updatedAt: string;
}

export async function insertBlock(store: Store, parent: BlockParent, block: BlockBody & { id: string }, position?: number): Promise<StoredBlockValue> {
  const pos = await openSlot(store, seqOf(parent), parentId(parent), position);
  const { content, ...meta } = block;
  const record: BlockRecord = {
    ...meta,
    lessonId: 'lessonId' in parent ? parent.lessonId : null,
    assignmentId: 'assignmentId' in parent ? parent.assignmentId : null,
    position: pos,
    ...content,
  };
  await insertRecord(store, BLOCKS, record);
  return blockView((await getBlock(store, block.id))!);
}

/** Write a block's content and review state as given (position and parent unchanged). */
export async function writeBlock(store: Store, id: string, b: BlockBody): Promise<void> {
  const before = (await getBlock(store, id))!;
  const { content, ...meta } = b;
  await updateRecord(store, BLOCKS, { ...meta, id, lessonId: before.lessonId, assignmentId: before.assignmentId, position: before.position, ...content });
}

export async function setBlockPosition(store: Store, id: string, position: number): Promise<void> {
  await store.run('UPDATE blocks SET position = ? WHERE id = ?', position, id);
}

export async function moveBlock(store: Store, block: BlockRow, to: number): Promise<void> {
  const parent: BlockParent = block.lessonId ? { lessonId: block.lessonId } : { assignmentId: block.assignmentId! };
  await moveTo(store, seqOf(parent), parentId(parent), block.id, block.position, to);
}

/** Move a lesson block into another lesson at `to` (0..n): the new siblings make room, the old ones close the gap (#14). */
export async function moveBlockToLesson(store: Store, block: BlockRow & { lessonId: string }, lessonId: string, to: number): Promise<void> {
  const position = await openSlot(store, { table: 'blocks', parent: 'lesson_id' }, lessonId, to);
  await store.run('UPDATE blocks SET lesson_id = ?, position = ? WHERE id = ?', lessonId, position, block.id);
  await closeGap(store, { table: 'blocks', parent: 'lesson_id' }, block.lessonId, block.position);
}

export async function deleteBlock(store: Store, block: BlockRow): Promise<void> {
  const parent: BlockParent = block.lessonId ? { lessonId: block.lessonId } : { assignmentId: block.assignmentId! };
  await store.run('DELETE FROM blocks WHERE id = ?', block.id);
  await closeGap(store, seqOf(parent), parentId(parent), block.position);
}

/** Delete instruction blocks not in `keep`, without touching the kept ones' positions. */
export async function deleteInstructionBlocksExcept(store: Store, assignmentId: string, keep: Set<string>): Promise<void> {
  for (const b of await listBlocks(store, { assignmentId })) if (!keep.has(b.id)) await store.run('DELETE FROM blocks WHERE id = ?', b.id);
}
