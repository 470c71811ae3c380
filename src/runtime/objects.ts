/** The fields of `o` whose value is not undefined: a PATCH body's "given fields", a request built from optional flags. */
export function definedFields<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
