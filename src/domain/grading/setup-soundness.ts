import type { Problem } from '../../errors.js';
import type { GradebookSetupValue } from '../../schemas/gradebook.js';

/** The grading rules editions this build computes. */
export const KNOWN_RULES_VERSIONS: readonly number[] = [1];

/**
 * What a gradebook setup must satisfy beyond its schema, wherever it comes from (PUT
 * .../gradebook/setup, a course file, a dataset): it belongs to the course it is stored
 * under, its categories too, category ids are unique, a check is dismissed once (a
 * dismissal is keyed by its code and target), and its rules edition is known.
 * Paths are relative to the setup.
 */
export function setupProblems(setup: GradebookSetupValue, courseId: string): Problem[] {
  const problems: Problem[] = [];
  if (setup.courseId !== courseId) problems.push({ path: 'courseId', message: `must be ${JSON.stringify(courseId)}, the course it belongs to` });
  const ids = new Set<string>();
  setup.categories.forEach((c, i) => {
    if (c.courseId !== courseId) problems.push({ path: `categories[${i}].courseId`, message: `must be ${JSON.stringify(courseId)}` });
    if (ids.has(c.id)) problems.push({ path: `categories[${i}].id`, message: `duplicate category id ${JSON.stringify(c.id)}` });
    ids.add(c.id);
  });
  const dismissed = new Map<string, number>();
  setup.dismissedChecks.forEach((d, i) => {
    const key = `${d.code}\u0000${d.target}`;
    const first = dismissed.get(key);
    if (first !== undefined) {
      problems.push({
        path: `dismissedChecks[${i}]`,
        message: `dismisses ${d.code} for ${JSON.stringify(d.target)} again (dismissedChecks[${first}] already does); keep one`,
      });
    } else dismissed.set(key, i);
  });
  if (!KNOWN_RULES_VERSIONS.includes(setup.rulesVersion)) {
    problems.push({
      path: 'rulesVersion',
      message: `grading rules edition ${setup.rulesVersion} is not known to this build (it knows ${KNOWN_RULES_VERSIONS.join(', ')})`,
    });
  }
  return problems;
}
