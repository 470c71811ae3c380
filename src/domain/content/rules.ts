/**
 * Pure content rules (content-and-people.md): instruction lists replaced by PATCH with
 * block identity kept by id, a grade from rubric criteria, and which submission field an
 * assignment takes. Problems come back as {path, message} lists; nothing here throws.
 */
import type { Problem } from '../../errors.js';
import type { BlockContentValue, RubricValue } from '../../schemas/content.js';
import { MAX_POINTS, roundDecimalText } from '../../schemas/decimal.js';

export type { Problem } from '../../errors.js';

type Content = BlockContentValue;

/** A stored instruction as the plan compares it: its id and content. */
export interface StoredInstruction {
  id: string;
  content: Content;
}

export type InstructionPlan =
  | { kind: 'keep'; id: string; position: number }
  | { kind: 'edit'; id: string; position: number; content: Content; previous: Content }
  | { kind: 'new'; position: number; content: Content };

const sameContent = (a: Content, b: Content): boolean => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
const sortKeys = (o: Record<string, unknown>) =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );

/**
 * The given list replaces the stored one. A given block with the id of a stored block keeps
 * its identity (and, unchanged, its origin, aiState and provenance); a changed one becomes a
 * human edit that keeps the old content in `previous`; blocks without id are new; stored
 * blocks not given are removed. An id that is not one of the assignment's blocks, or the
 * same id twice, is a problem.
 */
export function planInstructions(stored: StoredInstruction[], given: (Content & { id?: string })[]): { plan: InstructionPlan[]; problems: Problem[] } {
  const byId = new Map(stored.map((b) => [b.id, b]));
  const seen = new Set<string>();
  const problems: Problem[] = [];
  const plan: InstructionPlan[] = [];
  given.forEach((g, position) => {
    const { id, ...content } = g;
    if (id === undefined) {
      plan.push({ kind: 'new', position, content: content as Content });
      return;
    }
    const old = byId.get(id);
    if (!old) problems.push({ path: `instructions[${position}].id`, message: `${JSON.stringify(id)} is not one of this assignment's blocks` });
    else if (seen.has(id)) problems.push({ path: `instructions[${position}].id`, message: `${JSON.stringify(id)} is given twice` });
    else if (sameContent(old.content, content as Content)) plan.push({ kind: 'keep', id, position });
    else plan.push({ kind: 'edit', id, position, content: content as Content, previous: old.content });
    seen.add(id);
  });
  return { plan, problems };
}

/** Criteria results from the rubric: each names a criterion (once) and one of its levels. */
export function gradeCriteria(
  rubric: RubricValue,
  given: { criterionId: string; levelId: string; comment: string }[],
): { criteria: { criterionId: string; levelId: string; points: number; comment: string }[]; total: number; problems: Problem[] } {
  const problems: Problem[] = [];
  const criteria: { criterionId: string; levelId: string; points: number; comment: string }[] = [];
  const seen = new Set<string>();
  let total = 0;
  if (rubric.length === 0 && given.length > 0) {
    return { criteria, total, problems: [{ path: 'criteria', message: 'the assignment has no rubric' }] };
  }
  given.forEach((g, i) => {
    const criterion = rubric.find((c) => c.id === g.criterionId);
    if (!criterion) {
      const ids = rubric.map((c) => c.id).join(', ');
      problems.push({
        path: `criteria[${i}].criterionId`,
        message: `${JSON.stringify(g.criterionId)} is not a criterion of the rubric (its criteria: ${ids})`,
      });
      return;
    }
    if (seen.has(g.criterionId)) {
      problems.push({ path: `criteria[${i}].criterionId`, message: `${JSON.stringify(g.criterionId)} is graded twice` });
      return;
    }
    seen.add(g.criterionId);
    const level = criterion.levels.find((l) => l.id === g.levelId);
    if (!level) {
      const ids = criterion.levels.map((l) => l.id).join(', ');
      problems.push({
        path: `criteria[${i}].levelId`,
        message: `${JSON.stringify(g.levelId)} is not a level of criterion ${JSON.stringify(g.criterionId)} (its levels: ${ids})`,
      });
      return;
    }
    criteria.push({ criterionId: g.criterionId, levelId: g.levelId, points: level.points, comment: g.comment });
    total = addDecimals(total, level.points);
  });
  // The sum is a score like any other: 6 decimals, and within the largest score.
  total = roundDecimalText(total);
  if (total > MAX_POINTS) problems.push({ path: 'criteria', message: `the chosen levels add up to ${total}, over the largest score ${MAX_POINTS}` });
  return { criteria, total, problems };
}

/** a + b without binary-float error for decimal inputs (0.1 + 0.2 = 0.3). */
export function addDecimals(a: number, b: number): number {
  const d = Math.max(decimals(a), decimals(b));
  const p = 10 ** d;
  return (Math.round(a * p) + Math.round(b * p)) / p;
}

const decimals = (x: number): number => {
  if (Number.isInteger(x)) return 0;
  for (let d = 1; d <= 15; d++) if (Math.round(x * 10 ** d) / 10 ** d === x) return d;
  return 15;
};

const FIELD_OF = { text: 'text', file: 'fileId', link: 'link' } as const;

/** Exactly the field that matches the submission type, non-empty; no other. */
export function submissionProblems(
  type: 'text' | 'file' | 'link',
  body: { text?: string | undefined; fileId?: string | undefined; link?: string | undefined },
): Problem[] {
  const problems: Problem[] = [];
  const wanted = FIELD_OF[type];
  for (const field of ['text', 'fileId', 'link'] as const) {
    const value = body[field];
    if (field === wanted) {
      if (value === undefined) problems.push({ path: field, message: `is required: the assignment takes ${type} submissions` });
      else if (value.trim() === '') problems.push({ path: field, message: 'must not be empty' });
      else if (field === 'link' && !isHttpUrl(value)) problems.push({ path: field, message: 'must be an http or https URL' });
    } else if (value !== undefined) {
      problems.push({ path: field, message: `is not accepted: the assignment takes ${type} submissions (${wanted})` });
    }
  }
  return problems;
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
