/**
 * Pure template rules (content-and-people.md, Templates): how a PATCH merges into a stored
 * template, module placement by key, and the order a new course gets its modules in.
 * No store, no clock: the route adds `updatedBy`/`updatedAt` and writes the result.
 */
export type Placement = 'start' | 'end';
export type TemplateOwnerValue = { kind: 'institution' } | { kind: 'user'; userId: string };
export interface TutorDefaultsValue {
  lesson: 'off' | 'on';
  assignment: 'off' | 'on';
}

export interface TemplateBlockValue {
  key: string;
  label: string;
  content: Record<string, unknown>;
}
export interface TemplateLessonValue {
  key: string;
  title: string;
  minutes: number;
  blocks: TemplateBlockValue[];
}
export interface TemplateModuleValue {
  key: string;
  title: string;
  placement: Placement;
  objective: string;
  lessons: TemplateLessonValue[];
}
export type TemplateModuleInputValue = Omit<TemplateModuleValue, 'placement'>;

/** The fields a PATCH may change. */
export interface TemplateFields {
  name: string;
  description: string;
  owner: TemplateOwnerValue;
  modules: TemplateModuleValue[];
  tutorDefaults: TutorDefaultsValue;
  accessFloor: number;
}

/** A validated PATCH body: every field optional; modules without placement. */
export type TemplatePatch = Partial<Omit<TemplateFields, 'modules'>> & { modules?: TemplateModuleInputValue[] | undefined };

export const PATCHABLE = ['name', 'description', 'owner', 'modules', 'tutorDefaults', 'accessFloor'] as const;
export type PatchableField = (typeof PATCHABLE)[number];

/** `modules` replaces the list; a module whose key was stored keeps its placement, a new key gets `start`. */
export function placeModules(stored: readonly { key: string; placement: Placement }[], given: readonly TemplateModuleInputValue[]): TemplateModuleValue[] {
  const placement = new Map(stored.map((m) => [m.key, m.placement]));
  return given.map((m) => ({ key: m.key, title: m.title, placement: placement.get(m.key) ?? 'start', objective: m.objective, lessons: m.lessons }));
}

/** The template after a PATCH: given top-level fields replace the stored ones, the rest stay. */
export function mergeTemplate<T extends TemplateFields>(before: T, patch: TemplatePatch): T {
  const next: T = { ...before };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.description !== undefined) next.description = patch.description;
  if (patch.owner !== undefined) next.owner = patch.owner;
  if (patch.tutorDefaults !== undefined) next.tutorDefaults = patch.tutorDefaults;
  if (patch.accessFloor !== undefined) next.accessFloor = patch.accessFloor;
  if (patch.modules !== undefined) next.modules = placeModules(before.modules, patch.modules);
  return next;
}

/** The top-level fields whose values differ, in PATCHABLE order. */
export function changedFields(before: TemplateFields, after: TemplateFields): PatchableField[] {
  return PATCHABLE.filter((f) => !deepEqual(before[f], after[f]));
}

/**
 * The modules of a new course made from a template: `start` modules before the course's
 * own (a new course has none), then `end` modules; each group in template order.
 */
export function courseModuleOrder<M extends { placement: Placement }>(modules: readonly M[]): M[] {
  return [...modules.filter((m) => m.placement === 'start'), ...modules.filter((m) => m.placement === 'end')];
}

/** Structural equality of JSON values; object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bkeys = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return keys.length === bkeys.length && keys.every((k) => deepEqual(ao[k], bo[k]));
}
