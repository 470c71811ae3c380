import { notFound } from '../../errors.js';

/** Who is looking at a block: their standing in its course (an enrollment role, or admin). */
export interface BlockViewer {
  role?: 'instructor' | 'reviewer' | 'student' | 'admin' | undefined;
}

/** A block as answered: its meta fields, and the fields of its content spread beside them. */
interface ViewedBlock {
  id: string;
  aiState: string | null;
  previous: Record<string, unknown> | null;
}

/** The meta fields of a stored block (schemas/content.ts BlockMeta); every other field is content. */
const META = new Set(['id', 'lessonId', 'position', 'origin', 'aiState', 'provenance', 'previous', 'updatedAt']);

/**
 * The one home of "students never see an AI draft". A block an assistant wrote waits for a
 * person to accept or reject it (readiness item 6.1); until then it is the authors' draft,
 * not course content. So a student sees, in its place, the content it replaced (what a
 * rejection would restore), or nothing when it replaced nothing. Staff see the draft.
 * Every route that answers blocks to a student (a lesson's blocks, a block, an
 * assignment's instructions) goes through here.
 */
function asStudentSees<B extends ViewedBlock>(block: B): B | null {
  if (block.aiState !== 'draft') return block;
  if (block.previous === null) return null;
  const meta = Object.fromEntries(Object.entries(block).filter(([k]) => META.has(k)));
  return { ...meta, ...block.previous, aiState: null, provenance: null, previous: null } as unknown as B;
}

export function blocksForViewer<B extends ViewedBlock>(blocks: B[], viewer: BlockViewer): B[] {
  if (viewer.role !== 'student') return blocks;
  return blocks.flatMap((b) => {
    const seen = asStudentSees(b);
    return seen === null ? [] : [seen];
  });
}

/** One block for this viewer: an AI draft that replaced nothing is not-found to a student, as hidden content is. */
export function blockForViewer<B extends ViewedBlock | null>(block: B, viewer: BlockViewer): B {
  if (block === null || viewer.role !== 'student') return block;
  const seen = asStudentSees(block);
  if (seen === null) throw notFound('Block', block.id);
  return seen;
}

/** An assignment for this viewer: its instructions as blocksForViewer leaves them. */
export function assignmentForViewer<A extends { instructions: ViewedBlock[] } | null>(assignment: A, viewer: BlockViewer): A {
  if (assignment === null || viewer.role !== 'student') return assignment;
  return { ...assignment, instructions: blocksForViewer(assignment.instructions, viewer) };
}
