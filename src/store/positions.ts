import { AppError } from '../errors.js';
import type { Store } from './db.js';

/**
 * Contiguous 0-based positions within a parent (content-and-people.md, General). Tables
 * and columns come from this fixed list only, never from input.
 */
export type Sequence =
  | { table: 'modules'; parent: 'course_id' }
  | { table: 'lessons'; parent: 'module_id' }
  | { table: 'assignments'; parent: 'module_id' }
  | { table: 'blocks'; parent: 'lesson_id' }
  | { table: 'blocks'; parent: 'assignment_id' };

/** Positions already taken under one parent. */
export async function siblingPositions(store: Store, seq: Sequence, parentId: string): Promise<{ id: string; position: number }[]> {
  return (await store.all(`SELECT id, position FROM ${seq.table} WHERE ${seq.parent} = ?`, parentId)) as { id: string; position: number }[];
}

export async function countIn(store: Store, seq: Sequence, parentId: string): Promise<number> {
  return ((await store.get(`SELECT COUNT(*) AS n FROM ${seq.table} WHERE ${seq.parent} = ?`, parentId)) as { n: number }).n;
}

/**
 * Make room for a new item: returns the position to insert at (last when not given) and
 * shifts the siblings at or after it. A position beyond the end is `invalid`.
 */
export async function openSlot(store: Store, seq: Sequence, parentId: string, position: number | undefined, field = 'position'): Promise<number> {
  const n = await countIn(store, seq, parentId);
  if (position === undefined) return n;
  if (position > n) throw new AppError('invalid', `${field}: must be between 0 and ${n}`, [{ path: field, message: `must be between 0 and ${n}` }]);
  // Two steps so the shift never collides with a unique index on (parent, position).
  await store.run(`UPDATE ${seq.table} SET position = -(position + 1) WHERE ${seq.parent} = ? AND position >= ?`, parentId, position);
  await store.run(`UPDATE ${seq.table} SET position = -position WHERE ${seq.parent} = ? AND position < 0`, parentId);
  return position;
}

/** Move an item to `to` (0..n-1), shifting the siblings in between. */
export async function moveTo(store: Store, seq: Sequence, parentId: string, id: string, from: number, to: number, field = 'position'): Promise<void> {
  const n = await countIn(store, seq, parentId);
  if (to > n - 1) throw new AppError('invalid', `${field}: must be between 0 and ${n - 1}`, [{ path: field, message: `must be between 0 and ${n - 1}` }]);
  if (to === from) return;
  if (to < from) {
    await store.run(`UPDATE ${seq.table} SET position = position + 1 WHERE ${seq.parent} = ? AND position >= ? AND position < ?`, parentId, to, from);
  } else {
    await store.run(`UPDATE ${seq.table} SET position = position - 1 WHERE ${seq.parent} = ? AND position > ? AND position <= ?`, parentId, from, to);
  }
  await store.run(`UPDATE ${seq.table} SET position = ? WHERE id = ?`, to, id);
}

/** Close the gap an item left at `from` after it was removed. */
export async function closeGap(store: Store, seq: Sequence, parentId: string, from: number): Promise<void> {
  await store.run(`UPDATE ${seq.table} SET position = position - 1 WHERE ${seq.parent} = ? AND position > ?`, parentId, from);
}

/**
 * Renumber a parent's children 0..n-1 in their present order (position, then id), where a
 * write that is not a move (an import's replace) left a gap or a repeat. In two steps, so
 * no renumbered row meets another at its position on the way.
 */
export async function renumber(store: Store, seq: Sequence, parentId: string): Promise<void> {
  const rows = (await siblingPositions(store, seq, parentId)).sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (rows.every((r, k) => r.position === k)) return;
  for (const [k, r] of rows.entries()) await store.run(`UPDATE ${seq.table} SET position = ? WHERE id = ?`, -(k + 1), r.id);
  await store.run(`UPDATE ${seq.table} SET position = -position - 1 WHERE ${seq.parent} = ? AND position < 0`, parentId);
}
