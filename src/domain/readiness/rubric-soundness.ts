import type { Problem } from '../../errors.js';
import type { StandardsRubricValue } from '../../schemas/readiness.js';
import { isKnownCheck } from './checks.js';

/**
 * What a standards rubric must satisfy beyond its schema, wherever it comes from (POST
 * /rubrics, a dataset file): item ids unique across standards, every automatic item names
 * a check, and every check named is one this build knows. Paths are relative to the rubric.
 */
export function rubricProblems(rubric: StandardsRubricValue): Problem[] {
  const problems: Problem[] = [];
  const ids = new Set<string>();
  rubric.standards.forEach((s, si) =>
    s.items.forEach((item, ii) => {
      const path = `standards[${si}].items[${ii}]`;
      if (ids.has(item.itemId)) problems.push({ path: `${path}.itemId`, message: `duplicate item id ${JSON.stringify(item.itemId)}` });
      ids.add(item.itemId);
      if (item.kind === 'automatic' && !item.check) problems.push({ path: `${path}.check`, message: 'is required for an automatic item' });
      if (item.check !== undefined && !isKnownCheck(item.check))
        problems.push({ path: `${path}.check`, message: `unknown check ${JSON.stringify(item.check)}` });
    }),
  );
  return problems;
}
