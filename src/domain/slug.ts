/**
 * Ids made from what a person typed (a category's name, a rubric criterion's or level's
 * title), so the commands that make them without JSON give readable, stable ids the same
 * way everywhere.
 */

/** An id made from a title: `Quizzes & Tests` -> `quizzes-tests`; `fallback` when nothing is left. */
export function slugId(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** `base` if it is not taken, else `base-2`, `base-3`, ... (the first one free). */
export function freeId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
