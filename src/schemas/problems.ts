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

/** Turn zod issues into `{path, message}` problems a person can act on, one per field. */
export function formatZodIssues(issues: ReadonlyArray<z.core.$ZodIssue>, prefix = ''): Problem[] {
  const problems: Problem[] = [];
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
        problems.push({ path: formatPath(path, prefix), message: bound(issue, 'min') });
        continue;
      case 'too_big':
        problems.push({ path: formatPath(path, prefix), message: bound(issue, 'max') });
        continue;
      case 'invalid_value':
        problems.push({
          path: formatPath(path, prefix),
          message:
            issue.values.length === 1
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
  return problems;
}
