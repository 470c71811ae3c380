/**
 * Statements that look up many ids at once put them in an `IN` list, a few hundred a
 * statement: one statement per id was a round trip each on PostgreSQL, and one list of
 * every id could pass the dialects' parameter limits (SQLite's 32,766, PostgreSQL's 65,535).
 */

/** Up to this many values go into one `IN` list. */
export const IN_LIST_SIZE = 500;

/** The values in runs of at most IN_LIST_SIZE, in order: one `IN` list each. */
export function inListSlices<T>(values: readonly T[]): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < values.length; i += IN_LIST_SIZE) slices.push(values.slice(i, i + IN_LIST_SIZE));
  return slices;
}

/** `?, ?, ?`: the placeholders of an `IN` list of `n` values. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');
