/** Blocks: lesson content and assignment instructions, with their AI review state. */
import type { StoredBlockValue } from '../schemas/content.js';
import type { Store } from './db.js';
import { closeGap, moveTo, openSlot, type Sequence } from './positions.js';
import { blockContentOf, blockFromRow, type Row } from './rows.js';

export type BlockParent = { lessonId: string } | { assignmentId: string };

const seqOf = (parent: BlockParent): Sequence => ('lessonId' in parent ? { table: 'blocks', parent: 'lesson_id' } : { table: 'blocks', parent: 'assignment_id' });
const parentId = (parent: BlockParent) => ('lessonId' in parent ? parent.lessonId : parent.assignmentId);

export interface BlockRow extends StoredBlockValue {
  assignmentId: string | null;
}

export function getBlock(store: Store, id: string): BlockRow | null {
  const row = store.stmt('SELECT * FROM blocks WHERE id = ?').get(id) as Row | undefined;
  return row ? { ...blockFromRow(row), assignmentId: (row.assignment_id as string | null) ?? null } : null;
}

export function listBlocks(store: Store, parent: BlockParent): StoredBlockValue[] {
  const sql = 'lessonId' in parent ? 'SELECT * FROM blocks WHERE lesson_id = ? ORDER BY position' : 'SELECT * FROM blocks WHERE assignment_id = ? ORDER BY position';
  return (store.stmt(sql).all(parentId(parent)) as Row[]).map(blockFromRow);
}

/** The content columns: `type` and the variant's other fields (JSON). */
function contentColumns(content: Record<string, unknown>): { type: string; content: string } {
  const { type, ...fields } = blockContentOf(content);
  return { type: type as string, content: JSON.stringify(fields) };
}

export function insertBlock(
  store: Store,
  parent: BlockParent,
  block: { id: string; content: Record<string, unknown>; origin: 'human' | 'ai'; aiState: StoredBlockValue['aiState']; provenance: unknown; previous: unknown; updatedAt: string },
  position?: number,
): StoredBlockValue {
  const pos = openSlot(store, seqOf(parent), parentId(parent), position);
  const c = contentColumns(block.content);
  store
    .stmt('INSERT INTO blocks (id, lesson_id, assignment_id, position, type, content, origin, ai_state, provenance, previous, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(
      block.id, 'lessonId' in parent ? parent.lessonId : null, 'assignmentId' in parent ? parent.assignmentId : null, pos, c.type, c.content,
      block.origin, block.aiState, block.provenance === null ? null : JSON.stringify(block.provenance), block.previous === null ? null : JSON.stringify(block.previous), block.updatedAt,
    );
  return getBlock(store, block.id)!;
}

/** Write a block's content and review state as given (position unchanged). */
export function writeBlock(store: Store, id: string, b: { content: Record<string, unknown>; origin: string; aiState: string | null; provenance: unknown; previous: unknown; updatedAt: string }): void {
  const c = contentColumns(b.content);
  store
    .stmt('UPDATE blocks SET type = ?, content = ?, origin = ?, ai_state = ?, provenance = ?, previous = ?, updated_at = ? WHERE id = ?')
    .run(c.type, c.content, b.origin, b.aiState, b.provenance === null ? null : JSON.stringify(b.provenance), b.previous === null ? null : JSON.stringify(b.previous), b.updatedAt, id);
}

export function setBlockPosition(store: Store, id: string, position: number): void {
  store.stmt('UPDATE blocks SET position = ? WHERE id = ?').run(position, id);
}

export function moveBlock(store: Store, block: BlockRow, to: number): void {
  const parent: BlockParent = block.lessonId ? { lessonId: block.lessonId } : { assignmentId: block.assignmentId! };
  moveTo(store, seqOf(parent), parentId(parent), block.id, block.position, to);
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
