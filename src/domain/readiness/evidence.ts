/**
 * Rules readiness evidence meets wherever it is written from: an item is one of the
 * course's rubric (rubricItem), and a finding is about an `ai` item (findingItemProblem).
 * The attestation and finding routes ask them of one item; a course's first copy (PUT
 * .../content `readiness`) asks them of every piece it brings (evidenceProblems).
 */
import type { Problem } from '../../errors.js';
import type { ReadinessEvidenceValue } from '../../schemas/readiness.js';
import type { Rubric, RubricItem } from './types.js';

/** The rubric's item with this id, or null. */
export function rubricItem(rubric: Rubric, itemId: string): RubricItem | null {
  for (const s of rubric.standards) for (const i of s.items) if (i.itemId === itemId) return i;
  return null;
}

/** A finding is an AI's verdict, so only an `ai` item takes one (null when it does). */
export function findingItemProblem(item: RubricItem, path: string): Problem | null {
  return item.kind === 'ai' ? null : { path, message: `must name an ai item (item ${item.number} is ${item.kind})` };
}

/**
 * The evidence a course's first copy brings, against the course's rubric on this end: each
 * attestation names that rubric and one of its items, each finding an `ai` item of it, and no
 * item has two of either. Paths are under `path` (the request's `readiness`).
 */
export function evidenceProblems(rubric: Rubric, evidence: ReadinessEvidenceValue, path = 'readiness'): Problem[] {
  const problems: Problem[] = [];
  const known = (itemId: string, at: string): RubricItem | null => {
    const item = rubricItem(rubric, itemId);
    if (!item) problems.push({ path: `${at}.itemId`, message: `${JSON.stringify(itemId)} is not an item of rubric ${JSON.stringify(rubric.id)}` });
    return item;
  };
  const once = (seen: Set<string>, itemId: string, at: string, what: string) => {
    if (seen.has(itemId)) problems.push({ path: `${at}.itemId`, message: `a second ${what} of item ${JSON.stringify(itemId)}` });
    seen.add(itemId);
  };
  const attested = new Set<string>();
  evidence.attestations.forEach((a, i) => {
    const at = `${path}.attestations[${i}]`;
    if (a.rubricId !== rubric.id) problems.push({ path: `${at}.rubricId`, message: `must be the course's rubric ${JSON.stringify(rubric.id)}` });
    else known(a.itemId, at);
    once(attested, a.itemId, at, 'attestation');
  });
  const found = new Set<string>();
  evidence.findings.forEach((f, i) => {
    const at = `${path}.findings[${i}]`;
    const item = known(f.itemId, at);
    const problem = item && findingItemProblem(item, `${at}.itemId`);
    if (problem) problems.push(problem);
    once(found, f.itemId, at, 'finding');
  });
  return problems;
}
