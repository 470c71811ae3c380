/**
 * The one string order of the project: UTF-16 code units, exactly as JavaScript's `<`
 * compares (code-point order for text without characters past U+FFFF). Not locale-aware
 * on purpose: sorted output (grades, exports, listings) must be the same on every machine.
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
