/**
 * Pure template rules (content-and-people.md, Templates; cli-and-serve.md, bulk editing).
 */
import { knownFieldsOnly } from '../../schemas/field-paths.js';
import { TemplateUpdate, type TemplateValue } from '../../schemas/templates.js';

export type TemplateModule = TemplateValue['modules'][number];

export interface TemplateLike {
  id: string;
  name: string;
  modules: TemplateModule[];
  [field: string]: unknown;
}

/** `modules` replaces the list; a module whose key was stored keeps its placement, a new key gets `start`. */
export function placeModules(stored: TemplateModule[], given: Omit<TemplateModule, 'placement'>[]): TemplateModule[] {
  const placement = new Map(stored.map((m) => [m.key, m.placement]));
  return given.map((m) => ({ key: m.key, title: m.title, placement: placement.get(m.key) ?? 'start', objective: m.objective, lessons: m.lessons }));
}

/** A value from the command line: JSON when it parses (80, true, null, "x"), else the text. */
export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** FIELD=VALUE -> [field, value]; the first `=` splits. */
export function parseAssignment(text: string): [string, unknown] | null {
  const i = text.indexOf('=');
  if (i <= 0) return null;
  return [text.slice(0, i).trim(), parseValue(text.slice(i + 1))];
}

export function matches(template: unknown, where: [string, unknown][]): boolean {
  return where.every(([path, value]) => JSON.stringify(getPath(template, path)) === JSON.stringify(value));
}

/**
 * The PATCH body for one template: --file's fields, then each --set (a dotted path such as
 * tutorDefaults.lesson sets one field of the stored object, so the patch is per template).
 * A stored value a dotted --set starts from is sent back with only the fields the PATCH
 * body takes (TemplateUpdate says which): a stored module's `placement` is the service's
 * to keep, and sending it back would be an unknown field.
 */
export function buildPatch(template: Record<string, unknown>, filePatch: Record<string, unknown>, sets: [string, unknown][]): Record<string, unknown> {
  const patch: Record<string, unknown> = structuredClone(filePatch);
  let writable: Record<string, unknown> | undefined;
  for (const [path, value] of sets) {
    const [top, ...rest] = path.split('.');
    if (rest.length === 0) {
      patch[top!] = value;
      continue;
    }
    writable ??= knownFieldsOnly(TemplateUpdate, template) as Record<string, unknown>;
    const base = structuredClone(patch[top!] ?? writable[top!] ?? {}) as Record<string, unknown>;
    let cur = base;
    rest.slice(0, -1).forEach((p) => {
      cur[p] = typeof cur[p] === 'object' && cur[p] !== null ? cur[p] : {};
      cur = cur[p] as Record<string, unknown>;
    });
    cur[rest[rest.length - 1]!] = value;
    patch[top!] = base;
  }
  return patch;
}
