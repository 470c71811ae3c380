/** Blocks: lesson content and assignment instructions, with their AI review state. */
import type { BlockContentValue, StoredBlockValue } from '../schemas/content.js';
import type { Store } from './db.js';
import { closeGap, moveTo, openSlot, type Sequence } from './positions.js';
import { BLOCKS, type BlockRecord, blockView, insertRecord, type Row, updateRecord } from './tables.js';

export type BlockParent = { lessonId: string } | { assignmentId: string };

const seqOf = (parent: BlockParent): Sequence =>
  'lessonId' in parent ? { table: 'blocks', parent: 'lesson_id' } : { table: 'blocks', parent: 'assignment_id' };
const parentId = (parent: BlockParent) => ('lessonId' in parent ? parent.lessonId : parent.assignmentId);

/** A block with where it sits: the lesson's, or the assignment's (instructions). */
export type BlockRow = BlockRecord;

export function getBlock(store: Store, id: string): BlockRow | null {
  const row = store.stmt('SELECT * FROM blocks WHERE id = ?').get(id) as Row | undefined;
  return row ? BLOCKS.fromRow(row) : null;
}

export function listBlocks(store: Store, parent: BlockParent): StoredBlockValue[] {
  const sql =
    'lessonId' in parent ? 'SELECT * FROM blocks WHERE lesson_id = ? ORDER BY position' : 'SELECT * FROM blocks WHERE assignment_id = ? ORDER BY position';
  return (store.stmt(sql).all(parentId(parent)) as Row[]).map((r) => blockView(BLOCKS.fromRow(r)));
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

export function insertBlock(store: Store, parent: BlockParent, block: BlockBody & { id: string }, position?: number): StoredBlockValue {
  const pos = openSlot(store, seqOf(parent), parentId(parent), position);
  const { content, ...meta } = block;
  const record: BlockRecord = {
    ...meta,
    lessonId: 'lessonId' in parent ? parent.lessonId : null,
    assignmentId: 'assignmentId' in parent ? parent.assignmentId : null,
    position: pos,
    ...content,
  };
  insertRecord(store, BLOCKS, record);
  return blockView(getBlock(store, block.id)!);
}

/** Write a block's content and review state as given (position and parent unchanged). */
export function writeBlock(store: Store, id: string, b: BlockBody): void {
  const before = getBlock(store, id)!;
  const { content, ...meta } = b;
  updateRecord(store, BLOCKS, { ...meta, id, lessonId: before.lessonId, assignmentId: before.assignmentId, position: before.position, ...content });
}

export function setBlockPosition(store: Store, id: string, position: number): void {
  store.stmt('UPDATE blocks SET position = ? WHERE id = ?').run(position, id);
}

export function moveBlock(store: Store, block: BlockRow, to: number): void {
  const parent: BlockParent = block.lessonId ? { lessonId: block.lessonId } : { assignmentId: block.assignmentId! };
  moveTo(store, seqOf(parent), parentId(parent), block.id, block.position, to);
}

/** Move a lesson block into another lesson at `to` (0..n): the new siblings make room, the old ones close the gap (#14). */
export function moveBlockToLesson(store: Store, block: BlockRow & { lessonId: string }, lessonId: string, to: number): void {
  const position = openSlot(store, { table: 'blocks', parent: 'lesson_id' }, lessonId, to);
  store.stmt('UPDATE blocks SET lesson_id = ?, position = ? WHERE id = ?').run(lessonId, position, block.id);
  closeGap(store, { table: 'blocks', parent: 'lesson_id' }, block.lessonId, block.position);
}

export function deleteBlock(store: Store, block: BlockRow): void {
  const parent: BlockParent = block.lessonId ? { lessonId: block.lessonId } : { assignmentId: block.assignmentId! };
  store.stmt('DELETE FROM blocks WHERE id = ?').run(block.id);
  closeGap(store, seqOf(parent), parentId(parent), block.position);
}

/** Delete instruction blocks not in `keep`, without touching the kept ones' positions. */
export function deleteInstructionBlocksExcept(store: Store, assignmentId: string, keep: Set<string>): void {
  for (const b of listBlocks(store, { assignmentId })) if (!keep.has(b.id)) store.stmt('DELETE FROM blocks WHERE id = ?').run(b.id);
}
