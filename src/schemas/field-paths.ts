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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object fields a schema knows at this level: an object's, or every union option's. */
function knownFields(s: z.ZodType): Map<string, z.ZodType[]> | null {
  const def = unwrap(s).def as { type: string; shape?: Record<string, z.ZodType>; options?: z.ZodType[] };
  if (def.type === 'object' && def.shape) return new Map(Object.entries(def.shape).map(([key, child]) => [key, [child]]));
  if (def.type !== 'union' || !def.options) return null;
  const merged = new Map<string, z.ZodType[]>();
  for (const option of def.options) for (const [key, children] of knownFields(option) ?? []) merged.set(key, [...(merged.get(key) ?? []), ...children]);
  return merged.size > 0 ? merged : null;
}

/**
 * A value with only the fields the schema knows, walking it as fieldPaths does: an object
 * loses every field the schema has no place for (a stored template module's read-only
 * `placement`, say, against the module a PATCH body takes), arrays keep their items, each
 * pared the same way, and anything else is kept as it is. For sending back what was read.
 */
export function knownFieldsOnly(schema: z.ZodType, value: unknown): unknown {
  const def = unwrap(schema).def as { type: string; element?: z.ZodType };
  if (def.type === 'array' && def.element && Array.isArray(value)) return value.map((item) => knownFieldsOnly(def.element!, item));
  const fields = knownFields(schema);
  if (!fields || !isRecord(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const schemas = fields.get(key);
    // A field two union options both know is pared by the first (an owner's `kind`).
    if (schemas) kept[key] = knownFieldsOnly(schemas[0]!, child);
  }
  return kept;
}

/** `modules[2].title` and `modules.2.title` -> `modules[].title`: array positions do not matter to the field. */
export const normalizePath = (path: string): string => path.replace(/\[\d+\]|\.\d+(?=\.|$)/g, '[]');

/** The parent of a path (`tutorDefaults.lesson` -> `tutorDefaults`; `name` -> ''). */
export const parentPath = (path: string): string => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');
