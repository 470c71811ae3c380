import { z } from '@hono/zod-openapi';
import { Description, Id, MAX_INT, Objective, Timestamp, Title } from './common.js';
import { BlockContent, Minutes } from './content.js';
import { TutorDefaults } from './courses.js';

export const TemplateOwner = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('institution') }),
  z.strictObject({ kind: z.literal('user'), userId: Id }),
]);

const Key = z.string().min(1).max(120);

export const TemplateBlock = z.strictObject({ key: Key, label: z.string().max(200).default(''), content: BlockContent });

export const TemplateLesson = z.strictObject({
  key: Key,
  title: Title,
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

/** A template module as sent in a create or update body: no `placement` (the service decides). */
export const TemplateModuleInput = z
  .strictObject({
    key: Key,
    title: Title,
    objective: Objective.default(''),
    lessons: z.array(TemplateLesson).max(100).default([]),
  })
  .superRefine((m, ctx) => {
    uniqueKeys(m.lessons, ctx, ['lessons']);
    m.lessons.forEach((l, i) => uniqueKeys(l.blocks, ctx, ['lessons', i, 'blocks']));
  });

export const TemplateModules = z
  .array(TemplateModuleInput)
  .max(20, { message: 'a template has at most 20 modules' })
  .superRefine((mods, ctx) => uniqueKeys(mods, ctx));

export const Template = z
  .object({
    id: Id,
    name: z.string(),
    description: z.string(),
    owner: TemplateOwner,
    modules: z.array(
      z.object({
        key: z.string(),
        title: z.string(),
        placement: z.enum(['start', 'end']),
        objective: z.string(),
        lessons: z.array(TemplateLesson),
      }),
    ),
    tutorDefaults: TutorDefaults,
    accessFloor: z.number().min(0).max(100),
    updatedBy: z.string(),
    updatedAt: Timestamp,
  })
  .openapi('Template');

export const TemplateCreate = z.strictObject({
  id: Id.optional(),
  name: z.string().min(1).max(120),
  description: Description.default(''),
  owner: TemplateOwner.optional(),
  modules: TemplateModules.default([]),
  tutorDefaults: TutorDefaults.default({ lesson: 'off', assignment: 'off' }),
  accessFloor: z.number().min(0).max(100).default(0),
});

export const TemplateUpdate = z.strictObject({
  name: z.string().min(1).max(120).optional(),
  description: Description.optional(),
  owner: TemplateOwner.optional(),
  modules: TemplateModules.optional(),
  tutorDefaults: TutorDefaults.optional(),
  accessFloor: z.number().min(0).max(100).optional(),
});

export const TemplateBulkUpdate = z.strictObject({
  updates: z
    .array(z.strictObject({ id: Id, patch: TemplateUpdate }))
    .min(1)
    .max(10_000),
  dryRun: z.boolean().default(false).openapi({ description: 'check every update as the real run would, and change nothing' }),
});

export const TemplateBulkResult = z.object({ updated: z.array(z.string()), dryRun: z.boolean() });

/** One update of a bulk that failed: in the `details` of the bulk's error, one per failed update, in order. */
export interface TemplateBulkFailure {
  /** `updates[i]`: the update in the request. */
  path: string;
  id: string;
  code: string;
  message: string;
  details?: unknown;
}

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

// --- the one type per resource, inferred from its schema -------------------------------
export type TemplateValue = z.infer<typeof Template>;
export type CertificateValue = z.infer<typeof Certificate>;
