/**
 * What an import with `--replace` must tidy after it writes. Replace updates records in
 * place and deletes nothing, so a record the file puts under another parent (a lesson
 * block made an assignment's instruction, a lesson moved to another module, a module to
 * another course) leaves a gap among the siblings it left; and an assignment the file
 * replaces keeps its stored instructions the file does not list, beside the file's own at
 * the same positions. Positions are contiguous within a parent (positions.ts), so every
 * parent a replace left or refilled is renumbered 0..n-1 in its present order (position,
 * then id): a no-op where nothing moved. A module that changed course takes its lessons and
 * assignments with it (their `course_id` follows the module's).
 */
import type { DatasetValue } from '../schemas/dataset.js';
import { type BlockParent, blockParents, parentId, seqOf } from './blocks.js';
import type { Store } from './db.js';
import { inListSlices, placeholders } from './in-lists.js';
import { renumber, type Sequence } from './positions.js';

/** A parent to renumber after the write, by its sequence and id. */
interface Parent {
  seq: Sequence;
  id: string;
}

export interface ReplaceMoves {
  /** Parents the file's records leave, and assignments whose instructions the file replaces. */
  parents: Parent[];
  /** Modules whose course the file changes. */
  movedModules: string[];
}

/** Read before the write: where the file's records are now. */
export async function replaceMovesOf(store: Store, d: DatasetValue): Promise<ReplaceMoves> {
  const parents = new Map<string, Parent>();
  const add = (seq: Sequence, id: string | null) => {
    if (id !== null) parents.set(`${seq.table} ${seq.parent} ${id}`, { seq, id });
  };
  const stored = async (table: string, columns: string, ids: readonly string[]) => {
    const rows: Record<string, string | null>[] = [];
    for (const slice of inListSlices(ids)) {
      rows.push(
        ...(await store.all<Record<string, string | null>>(`SELECT id, ${columns} FROM ${table} WHERE id IN (${placeholders(slice.length)})`, ...slice)),
      );
    }
    return new Map(rows.map((r) => [r.id as string, r]));
  };

  const modules = await stored(
    'modules',
    'course_id',
    d.modules.map((m) => m.id),
  );
  const movedModules: string[] = [];
  for (const m of d.modules) {
    const was = modules.get(m.id);
    if (was && was.course_id !== m.courseId) {
      add({ table: 'modules', parent: 'course_id' }, was.course_id!);
      movedModules.push(m.id);
    }
  }
  const lessons = await stored(
    'lessons',
    'module_id',
    d.lessons.map((l) => l.id),
  );
  for (const l of d.lessons) {
    const was = lessons.get(l.id);
    if (was && was.module_id !== l.moduleId) add({ table: 'lessons', parent: 'module_id' }, was.module_id!);
  }
  const assignments = await stored(
    'assignments',
    'module_id',
    d.assignments.map((a) => a.id),
  );
  for (const a of d.assignments) {
    const was = assignments.get(a.id);
    if (was && was.module_id !== a.moduleId) add({ table: 'assignments', parent: 'module_id' }, was.module_id!);
    // Its stored instructions stay beside the file's: the two lists are made one.
    if (was) add({ table: 'blocks', parent: 'assignment_id' }, a.id);
  }
  const fileBlocks: { id: string; parent: BlockParent }[] = [
    ...d.blocks.map((b) => ({ id: b.id, parent: { lessonId: b.lessonId } })),
    ...d.assignments.flatMap((a) => a.instructions.map((b) => ({ id: b.id, parent: { assignmentId: a.id } }))),
  ];
  const storedBlocks = await blockParents(
    store,
    fileBlocks.map((b) => b.id),
  );
  for (const b of fileBlocks) {
    const was = storedBlocks.get(b.id);
    if (was && (seqOf(was).parent !== seqOf(b.parent).parent || parentId(was) !== parentId(b.parent))) add(seqOf(was), parentId(was));
  }
  return { parents: [...parents.values()], movedModules };
}

/** After the write, in its transaction: contiguous positions again, and moved modules' contents in their new course. */
export async function tidyAfterReplace(tx: Store, moves: ReplaceMoves): Promise<void> {
  for (const id of moves.movedModules) {
    await tx.run('UPDATE lessons SET course_id = (SELECT course_id FROM modules WHERE id = ?) WHERE module_id = ?', id, id);
    await tx.run('UPDATE assignments SET course_id = (SELECT course_id FROM modules WHERE id = ?) WHERE module_id = ?', id, id);
  }
  for (const p of moves.parents) await renumber(tx, p.seq, p.id);
}
