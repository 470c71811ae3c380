import type { Problem } from '../../errors.js';
import { isKnownCheck } from './checks.js';

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const fields = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * What a standards rubric must satisfy beyond its schema, wherever it comes from (POST
 * /rubrics, a dataset file): item ids unique across standards, every automatic item names
 * a check, and every check named is one this build knows. Paths are relative to the rubric.
 *
 * It reads the rubric as far as its shape allows (a value the schema refused included:
 * fields of the wrong type are skipped, the schema names those), so one answer lists these
 * problems with the shape's own instead of only after the shape is fixed.
 */
export function rubricProblems(rubric: unknown): Problem[] {
  const problems: Problem[] = [];
  const ids = new Set<string>();
  list(fields(rubric).standards).forEach((s, si) =>
    list(fields(s).items).forEach((raw, ii) => {
      const item = fields(raw);
      const path = `standards[${si}].items[${ii}]`;
      if (typeof item.itemId === 'string') {
        if (ids.has(item.itemId)) problems.push({ path: `${path}.itemId`, message: `duplicate item id ${JSON.stringify(item.itemId)}` });
        ids.add(item.itemId);
      }
      if (item.kind === 'automatic' && item.check === undefined) problems.push({ path: `${path}.check`, message: 'is required for an automatic item' });
      if (typeof item.check === 'string' && item.check !== '' && !isKnownCheck(item.check))
        problems.push({ path: `${path}.check`, message: `unknown check ${JSON.stringify(item.check)}` });
    }),
  );
  return problems;
}
