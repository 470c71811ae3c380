/**
 * The offline authoring round trip (docs/authoring.md): a course's content read and
 * written whole, by id, at a revision; the plan a write applies; and the marks a store
 * keeps of its last push or pull per remote.
 */
import { z } from '@hono/zod-openapi';
import { Id, MAX_INT, Timestamp } from './common.js';
import { CourseFile } from './course-file.js';
import { ReadinessEvidence } from './readiness.js';
import { NUL_MESSAGE, withoutNul } from './text.js';

export const ContentRevision = z
  .number()
  .int()
  .min(0)
  .max(MAX_INT)
  .openapi({ description: "The course content's revision: every change to what the course file holds makes it larger. Compare it for equality only." });

/** GET /courses/{courseId}/content: the course file with every id, and its revision. */
// A new object of CourseFile's fields rather than `.extend()`: the OpenAPI generator writes an
// extension of a registered strict schema as allOf with that schema, which no body can satisfy.
export const CourseContent = z.strictObject({ ...CourseFile.shape, contentRevision: ContentRevision }).openapi('CourseContent');

/** PUT /courses/{courseId}/content: a course file with every id, the revision it was based on, and whether to only plan. */
export const CourseContentWrite = z
  .strictObject({
    ...CourseFile.shape,
    expectedRevision: ContentRevision.nullable().optional().openapi({
      description: 'The revision the file was based on (`null`: the course must not exist yet). Stale is `conflict`; leave it out to skip the check.',
    }),
    dryRun: z.boolean().default(false).openapi({ description: 'Answer the plan without writing anything' }),
    readiness: ReadinessEvidence.optional(),
  })
  .openapi('CourseContentWrite');

const KindPlan = z.object({
  added: z.array(Id),
  changed: z.array(z.object({ id: Id, fields: z.array(z.string()) })),
  moved: z.array(Id),
  removed: z.array(Id),
});

/** What a write changes, by id, for each kind of content. */
export const ContentPlan = z
  .object({
    course: z.object({ created: z.boolean(), changed: z.array(z.string()) }),
    modules: KindPlan,
    lessons: KindPlan,
    assignments: KindPlan,
    blocks: KindPlan.openapi({ description: 'Lesson blocks and assignment instructions' }),
    gradebookSetup: z.object({ changed: z.array(z.string()) }),
  })
  .openapi('ContentPlan');

export const ContentWriteResult = z
  .object({
    courseId: Id,
    dryRun: z.boolean(),
    created: z.boolean(),
    previousRevision: ContentRevision.nullable().openapi({ description: 'The revision before the write; null when the course did not exist' }),
    revision: ContentRevision.nullable().openapi({ description: 'The revision now (a dry run: unchanged; null when the course does not exist)' }),
    changes: z.number().int().min(0),
    plan: ContentPlan,
  })
  .openapi('ContentWriteResult');

/**
 * Where a copy of a course lives: a service's base URL, or `store:` and a store file's path.
 * Sent as a query parameter too, which json-text's body check never sees: U+0000 is refused here.
 */
export const RemoteKey = z.string().min(1).max(2048).refine(withoutNul, NUL_MESSAGE);

export const SyncMark = z
  .object({
    courseId: Id,
    remote: RemoteKey,
    remoteRevision: ContentRevision,
    localRevision: ContentRevision,
    base: z.any().openapi({ description: 'The course file both copies held after that push or pull' }),
    syncedAt: Timestamp,
  })
  .openapi('SyncMark');

export const SyncMarkWrite = z.strictObject({ remote: RemoteKey, remoteRevision: ContentRevision, localRevision: ContentRevision, base: CourseFile });

export const SyncMarkAnswer = z.object({ courseId: Id, remote: RemoteKey, mark: SyncMark.nullable() }).openapi('SyncMarkAnswer');

export type CourseContentValue = z.infer<typeof CourseContent>;
export type ContentPlanValue = z.infer<typeof ContentPlan>;
export type ContentWriteValue = z.infer<typeof CourseContentWrite>;
export type ContentWriteResultValue = z.infer<typeof ContentWriteResult>;
export type SyncMarkValue = z.infer<typeof SyncMark>;
