/**
 * The one string order of the project: plain code-point order (UTF-16 code units), the
 * same on every machine and in every locale, never localeCompare. Student names, ids,
 * categories and items all sort with it.
 */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
