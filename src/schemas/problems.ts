import type { z } from 'zod';
import type { Problem } from '../errors.js';

/** `['assignments', 3, 'points']` -> `assignments[3].points` (prefixed when given). */
export function formatPath(segments: ReadonlyArray<PropertyKey>, prefix = ''): string {
  let out = prefix;
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? String(s) : `.${String(s)}`;
  }
  return out === '' ? '(root)' : out;
}

const bound = (issue: { inclusive?: boolean | undefined; origin: string } & ({ minimum: unknown } | { maximum: unknown }), dir: 'min' | 'max'): string => {
  const value = 'minimum' in issue ? issue.minimum : issue.maximum;
  const op = dir === 'min' ? (issue.inclusive === false ? '>' : '>=') : issue.inclusive === false ? '<' : '<=';
  switch (issue.origin) {
    case 'string':
      return dir === 'min' ? (value === 1 ? 'must not be empty' : `must be at least ${value} characters`) : `must be at most ${value} characters`;
    case 'array':
    case 'set':
      return dir === 'min' ? `must have at least ${value} item${value === 1 ? '' : 's'}` : `must have at most ${value} items`;
    default:
      return `must be ${op} ${value}`;
  }
};

/**
 * Turn zod issues into `{path, message}` problems a person can act on, one per field.
 * `input`, the value checked, lets a missing field say `is required` where zod's issue
 * alone cannot tell (a missing enum is reported like a wrong one).
 */
export function formatZodIssues(issues: ReadonlyArray<z.core.$ZodIssue>, prefix = '', input?: unknown): Problem[] {
  const problems: Problem[] = [];
  // A number past two bounds at once (an integer past 2^53 that also has a smaller maximum)
  // is one problem: the bound that holds, the tightest.
  const numericBounds = new Map<string, { index: number; value: number; dir: 'min' | 'max' }>();
  const pushBound = (issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, dir: 'min' | 'max') => {
    const path = formatPath(issue.path, prefix);
    const value = Number('minimum' in issue ? issue.minimum : issue.maximum);
    const key = `${dir} ${path}`;
    const seen = numericBounds.get(key);
    const numeric = issue.origin === 'number' || issue.origin === 'int';
    if (numeric && seen !== undefined) {
      if (dir === 'max' ? value < seen.value : value > seen.value) {
        problems[seen.index] = { path, message: bound(issue, dir) };
        seen.value = value;
      }
      return;
    }
    if (numeric) numericBounds.set(key, { index: problems.length, value, dir });
    problems.push({ path, message: bound(issue, dir) });
  };
  for (const issue of issues) {
    const path = issue.path;
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) problems.push({ path: formatPath([...path, key], prefix), message: 'unknown field' });
        continue;
      case 'invalid_type': {
        // zod 4 does not report the input by default; its message says what it received.
        const received = /received (\w+)/.exec(issue.message)?.[1];
        const message =
          received === 'undefined'
            ? 'is required'
            : issue.expected === 'int'
              ? 'must be an integer'
              : `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}${received === 'null' ? ', not null' : ''}`;
        problems.push({ path: formatPath(path, prefix), message });
        continue;
      }
      case 'too_small':
        pushBound(issue, 'min');
        continue;
      case 'too_big':
        pushBound(issue, 'max');
        continue;
      case 'invalid_value':
        problems.push({
          path: formatPath(path, prefix),
          message: isMissing(input, path)
            ? 'is required'
            : issue.values.length === 1
              ? `must be ${JSON.stringify(issue.values[0])}`
              : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`,
        });
        continue;
      case 'invalid_union': {
        const disc = (issue as { note?: string; discriminator?: string }).discriminator;
        const options = (issue as { errors?: z.core.$ZodIssue[][] }).errors ?? [];
        if (!disc && options.length > 0) {
          // Options that failed on the value's type alone say nothing about it; when one option
          // is left (an object or null, say), its own problems name the fields.
          const typeOnly = (errs: z.core.$ZodIssue[]) => errs.length === 1 && errs[0]!.code === 'invalid_type' && errs[0]!.path.length === 0;
          const left = options.filter((errs) => !typeOnly(errs));
          if (left.length === 1) {
            problems.push(
              ...formatZodIssues(
                left[0]!.map((e) => ({ ...e, path: [...path, ...e.path] })),
                prefix,
              ),
            );
            continue;
          }
          if (left.length === 0) {
            const expected = options
              .map((errs) => (errs[0] as { expected?: string }).expected ?? 'value')
              .map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : t === 'null' ? t : `a ${t}`));
            problems.push({ path: formatPath(path, prefix), message: `must be ${expected.join(' or ')}` });
            continue;
          }
        }
        // zod 4 already ends the path with the discriminator; older shapes did not.
        const full = disc && path[path.length - 1] !== disc ? [...path, disc] : path;
        problems.push({ path: formatPath(full, prefix), message: disc ? 'is not one of the allowed values' : 'does not match any allowed shape' });
        continue;
      }
      case 'invalid_format':
        problems.push({ path: formatPath(path, prefix), message: `must be a valid ${issue.format}` });
        continue;
      default:
        problems.push({ path: formatPath(path, prefix), message: issue.message });
    }
  }
  return distinct(problems);
}

/** Whether the checked value has nothing at this path (known only when the value is given). */
function isMissing(input: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  if (input === undefined || path.length === 0) return false;
  let at: unknown = input;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return false;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at === undefined;
}

/** The same problem twice (two checks that say the same of one field) is said once. */
export function distinct(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A schema's problems with those of the rules beyond it, run on the same value (as far as
 * its shape allows): one answer lists both. A field the schema already refused is not
 * judged again by a rule.
 */
export function withRuleProblems(shape: readonly Problem[], rules: readonly Problem[]): Problem[] {
  const refused = new Set(shape.map((p) => p.path));
  return distinct([...shape, ...rules.filter((p) => !refused.has(p.path))]);
}
