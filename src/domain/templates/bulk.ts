/**
 * The checks of a bulk template update that happen before anything is sent, so a dry run
 * fails exactly where the real run would: the patch against the schema PATCH
 * /templates/{id} validates with (an unknown field says which one was meant), and the
 * --where fields against the fields a template has.
 */
import type { Problem } from '../../errors.js';
import { fieldPaths, normalizePath, parentPath } from '../../schemas/field-paths.js';
import { formatZodIssues } from '../../schemas/problems.js';
import { Template, TemplateUpdate } from '../../schemas/templates.js';
import { closestName } from '../did-you-mean.js';

// Walked on first use, not when the CLI starts.
let known: { template: string[]; patch: string[] } | undefined;
const fields = () => (known ??= { template: fieldPaths(Template), patch: fieldPaths(TemplateUpdate) });

/** `; did you mean accessFloor?` for an unknown path: the closest field beside it, else anywhere. */
function didYouMean(path: string, known: string[]): string {
  const normal = normalizePath(path);
  const siblings = known.filter((f) => parentPath(f) === parentPath(normal));
  const best = closestName(normal, siblings) ?? closestName(normal, known);
  return best === undefined ? '' : `; did you mean ${best}?`;
}

/** The --where paths a template does not have, each with a suggestion when one is close. */
export function unknownWhereFields(paths: string[]): string[] {
  const { template } = fields();
  return paths.filter((p) => !template.includes(normalizePath(p))).map((p) => `unknown field ${JSON.stringify(p)}${didYouMean(p, template)}`);
}

export type PatchCheck = { ok: true; patch: Record<string, unknown> } | { ok: false; problems: Problem[] };

/** The patch as the service reads it (defaults applied), or its problems as the service would list them. */
export function checkTemplatePatch(patch: Record<string, unknown>): PatchCheck {
  const parsed = TemplateUpdate.safeParse(patch);
  if (parsed.success) return { ok: true, patch: parsed.data };
  return {
    ok: false,
    problems: formatZodIssues(parsed.error.issues).map((p) =>
      p.message === 'unknown field' ? { ...p, message: `unknown field${didYouMean(p.path, fields().patch)}` } : p,
    ),
  };
}
