/**
 * Student work is never lost (docs/authoring.md): an assignment with submissions may not
 * be deleted, go back to draft, or end up in a draft module, whichever path asks (the
 * lifecycle operations, a content write, a push or a pull). Pure: the store supplies the
 * assignments before and after the change and their submission counts.
 */

/** Where an assignment stands for students: its own status and its module's. */
export interface AssignmentStanding {
  id: string;
  title: string;
  moduleId: string;
  published: boolean;
  modulePublished: boolean;
}

export type LossReason = 'deleted' | 'back to draft' | 'module back to draft';

export interface LostWork {
  id: string;
  title: string;
  submissions: number;
  reason: LossReason;
}

/** The assignments with submissions that the change would delete or hide from their students. */
export function studentWorkLost(
  before: ReadonlyArray<AssignmentStanding>,
  after: ReadonlyMap<string, AssignmentStanding>,
  submissions: ReadonlyMap<string, number>,
): LostWork[] {
  const lost: LostWork[] = [];
  for (const a of before) {
    const n = submissions.get(a.id) ?? 0;
    if (n === 0) continue;
    const next = after.get(a.id);
    const reason: LossReason | null = !next
      ? 'deleted'
      : a.published && !next.published
        ? 'back to draft'
        : a.modulePublished && !next.modulePublished
          ? 'module back to draft'
          : null;
    if (reason) lost.push({ id: a.id, title: a.title, submissions: n, reason });
  }
  return lost;
}

const REASON_WORDS: Record<LossReason, string> = {
  deleted: 'would be deleted',
  'back to draft': 'would go back to draft',
  'module back to draft': 'would be hidden in a draft module',
};

const count = (n: number) => `${n} submission${n === 1 ? '' : 's'}`;

/** The conflict message naming each assignment; the one-assignment unpublish keeps its long-standing wording. */
export function lostWorkMessage(lost: ReadonlyArray<LostWork>): string {
  if (lost.length === 1 && lost[0]!.reason === 'back to draft') {
    const a = lost[0]!;
    return `Assignment ${a.id} has ${count(a.submissions)}; it cannot go back to draft.`;
  }
  const each = lost.map((a) => `${a.id} (${JSON.stringify(a.title)}, ${count(a.submissions)}) ${REASON_WORDS[a.reason]}`).join('; ');
  return `Student work would be lost: ${each}. Nothing was changed.`;
}
