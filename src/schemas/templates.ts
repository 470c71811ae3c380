import { z } from '@hono/zod-openapi';
import { Id, MAX_INT, Timestamp } from './common.js';
import { BlockContent, Minutes, TutorDefaults } from './content.js';

export const TemplateOwner = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('institution') }),
  z.strictObject({ kind: z.literal('user'), userId: Id }),
]);

const Key = z.string().min(1).max(120);

export const TemplateBlock = z.strictObject({ key: Key, label: z.string().max(200).default(''), content: BlockContent });

export const TemplateLesson = z.strictObject({
  key: Key,
  title: z.string().min(1).max(200),
  minutes: Minutes,
  blocks: z.array(TemplateBlock).max(200).default([]),
});

function uniqueKeys<T extends { key: string }>(list: T[], ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  const seen = new Set<string>();
  list.forEach((item, i) => {
    if (seen.has(item.key)) ctx.addIssue({ code: 'custom', path: [...path, i, 'key'], message: `duplicate key ${JSON.stringify(item.key)}` });
    seen.add(item.key);
  });
}

const ModuleFields = {
  key: Key,
  title: z.string().min(1).max(200),
  objective: z.string().max(2000).default(''),
  lessons: z.array(TemplateLesson).max(100).default([]),
};

function uniqueLessonKeys(m: { lessons: { key: string; blocks: { key: string }[] }[] }, ctx: z.RefinementCtx): void {
  uniqueKeys(m.lessons, ctx, ['lessons']);
  m.lessons.forEach((l, i) => uniqueKeys(l.blocks, ctx, ['lessons', i, 'blocks']));
}

/** A template module as sent in an update body: no `placement` (a stored key keeps its own, a new key gets `start`). */
export const TemplateModuleInput = z.strictObject(ModuleFields).superRefine(uniqueLessonKeys);

/** A template module as sent when creating a template: `placement` may be given (default `start`). */
export const TemplateModuleCreate = z
  .strictObject({ ...ModuleFields, placement: z.enum(['start', 'end']).default('start') })
  .superRefine(uniqueLessonKeys);

const MAX_MODULES = { message: 'a template has at most 20 modules' };

export const TemplateModules = z
  .array(TemplateModuleInput)
  .max(20, MAX_MODULES)
  .superRefine((mods, ctx) => uniqueKeys(mods, ctx));

export const TemplateCreateModules = z
  .array(TemplateModuleCreate)
  .max(20, MAX_MODULES)
  .superRefine((mods, ctx) => uniqueKeys(mods, ctx));

export const Template = z
  .object({
    id: Id,
    name: z.string(),
    description: z.string(),
    owner: TemplateOwner,
    modules: z
      .array(
        z.object({
          key: z.string(),
          title: z.string(),
          placement: z.enum(['start', 'end']),
          objective: z.string(),
          lessons: z.array(TemplateLesson),
        }),
      )
      .max(20),
    tutorDefaults: TutorDefaults,
    accessFloor: z.number().min(0).max(100),
    updatedBy: z.string(),
    updatedAt: Timestamp,
  })
  .openapi('Template');

export const TemplateCreate = z.strictObject({
  id: Id.optional(),
  name: z.string().min(1).max(120),
  description: z.string().max(20_000).default(''),
  owner: TemplateOwner.optional(),
  modules: TemplateCreateModules.default([]),
  tutorDefaults: TutorDefaults.default({ lesson: 'off', assignment: 'off' }),
  accessFloor: z.number().min(0).max(100).default(0),
});

const UpdateFields = {
  name: z.string().min(1).max(120).optional(),
  description: z.string().max(20_000).optional(),
  owner: TemplateOwner.optional(),
  modules: TemplateModules.optional(),
  tutorDefaults: TutorDefaults.optional(),
  accessFloor: z.number().min(0).max(100).optional(),
};

export const TemplateUpdate = z.strictObject(UpdateFields);

/**
 * The patch of a bulk update: a TemplateUpdate applied to every selected template, except
 * that `tutorDefaults` may name only some of its fields (the others stay as each template has them).
 */
export const TemplateBulkPatch = z
  .strictObject({ ...UpdateFields, tutorDefaults: TutorDefaults.partial().optional() })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'the patch changes nothing: give at least one field' });

/** Field paths a bulk update may select on (`owner.kind`, `accessFloor`, ...). */
export const TEMPLATE_FIELDS = ['id', 'name', 'description', 'owner', 'modules', 'tutorDefaults', 'accessFloor', 'updatedBy', 'updatedAt'] as const;

export const TemplateBulkUpdate = z.strictObject({
  where: z
    .record(z.string().min(1).max(200), z.any())
    .openapi({ description: 'dotted field path -> JSON value; every entry must match (an empty object selects every template)', example: { 'owner.kind': 'institution' } }),
  patch: TemplateBulkPatch,
  ids: z
    .array(Id)
    .max(10_000)
    .optional()
    .openapi({ description: 'the templates the caller previewed; if the selection now differs in a way that matters, nothing changes (conflict)' }),
});

export const TemplateBulkResult = z.object({ matched: z.array(Id), updated: z.array(Id) });

export const Certificate = z
  .object({
    id: Id,
    code: z.string(),
    userId: Id,
    learnerName: z.string(),
    courseId: Id,
    courseTitle: z.string(),
    issuedAt: Timestamp,
    basis: z.enum(['completed', 'tested-out']),
    replaces: Id.nullable(),
    replacedBy: Id.nullable(),
    replaceReason: z.string().nullable(),
  })
  .openapi('Certificate');

export const CertificateIssue = z.strictObject({ userId: Id, courseId: Id, basis: z.enum(['completed', 'tested-out']) });
export const CertificateReplace = z.strictObject({ reason: z.string().min(1).max(2000), basis: z.enum(['completed', 'tested-out']).optional() });

export const PositionInt = z.number().int().min(0).max(MAX_INT);
