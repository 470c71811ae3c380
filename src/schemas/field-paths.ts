import type { z } from 'zod';

/** Wrappers that hold one schema (optional, default, nullable, a pipe's input, ...). */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = s.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
    if (def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else return s;
  }
}

/**
 * Every field path a schema knows, walking objects, the options of unions (an owner is
 * `{kind}` or `{kind, userId}`) and the items of arrays (`modules[].lessons[].title`).
 * For telling a typo from a field.
 */
export function fieldPaths(schema: z.ZodType): string[] {
  const fields = new Set<string>();
  const walk = (s: z.ZodType, prefix: string) => {
    const def = unwrap(s).def as { type: string; shape?: Record<string, z.ZodType>; options?: z.ZodType[]; element?: z.ZodType };
    if (def.type === 'object' && def.shape) {
      for (const [key, child] of Object.entries(def.shape)) {
        const path = prefix === '' ? key : `${prefix}.${key}`;
        fields.add(path);
        walk(child, path);
      }
    } else if (def.type === 'union' && def.options) {
      for (const option of def.options) walk(option, prefix);
    } else if (def.type === 'array' && def.element) walk(def.element, `${prefix}[]`);
  };
  walk(schema, '');
  return [...fields];
}

/** `modules[2].title` and `modules.2.title` -> `modules[].title`: array positions do not matter to the field. */
export const normalizePath = (path: string): string => path.replace(/\[\d+\]|\.\d+(?=\.|$)/g, '[]');

/** The parent of a path (`tutorDefaults.lesson` -> `tutorDefaults`; `name` -> ''). */
export const parentPath = (path: string): string => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');
