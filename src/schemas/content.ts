import { z } from '@hono/zod-openapi';
import { HttpUrl, Id, MAX_INT, orNull, Points, Position, Provenance, Timestamp, TimestampInput, Title } from './common.js';
import { Status } from './courses.js';

const Text = z.string().max(20_000);
const NonBlank = Text.refine((v) => v.trim().length > 0, { message: 'must not be blank' });

// The 11 block variants of content-and-people.md. Optional fields get defaults so the stored
// block is always complete; the spec names only `heading`, the others are our decision.
const variants = {
  heading: { type: z.literal('heading'), level: z.number().int().min(1).max(6), text: NonBlank },
  paragraph: { type: z.literal('paragraph'), text: NonBlank },
  list: { type: z.literal('list'), ordered: z.boolean().default(false), items: z.array(NonBlank).min(1).max(500) },
  image: { type: z.literal('image'), url: z.string().min(1).max(2048), alt: Text.default(''), decorative: z.boolean().default(false) },
  video: {
    type: z.literal('video'),
    url: HttpUrl,
    captions: z.string().min(1).max(2048).nullable().default(null),
    durationSeconds: z.number().int().min(0).max(MAX_INT).nullable().default(null),
  },
  link: { type: z.literal('link'), url: HttpUrl, text: NonBlank },
  code: { type: z.literal('code'), language: z.string().max(40).default(''), text: Text },
  quote: { type: z.literal('quote'), text: NonBlank, cite: z.string().max(2000).nullable().default(null) },
  callout: { type: z.literal('callout'), tone: z.enum(['info', 'warning', 'success']), text: NonBlank },
  embed: { type: z.literal('embed'), url: HttpUrl, title: NonBlank, privacyUrl: HttpUrl.nullable().default(null) },
  divider: { type: z.literal('divider') },
} as const;

export const BLOCK_TYPES = Object.keys(variants) as (keyof typeof variants)[];

/** The 11-variant union, each variant strict, with `extra` fields added to every variant. */
export function blockUnion<E extends z.ZodRawShape>(extra: E) {
  const variant = <S extends z.ZodRawShape>(shape: S) => z.strictObject({ ...extra, ...shape });
  return z.discriminatedUnion('type', [
    variant(variants.heading),
    variant(variants.paragraph),
    variant(variants.list),
    variant(variants.image),
    variant(variants.video),
    variant(variants.link),
    variant(variants.code),
    variant(variants.quote),
    variant(variants.callout),
    variant(variants.embed),
    variant(variants.divider),
  ]);
}

export const BlockContent = blockUnion({}).openapi('BlockContent');

/** Block content as sent: a variant plus an optional `id` naming a stored block. */
export const BlockInput = blockUnion({ id: Id.optional() }).openapi('BlockInput');

/**
 * A block's content seen generically (its variant's `type` and the variant's fields), the
 * way rules that walk any block read it; the schema above says which fields each has.
 */
export type BlockContentValue = { type: z.infer<typeof BlockContent>['type'] } & Record<string, unknown>;
export type BlockInputValue = BlockContentValue & { id?: string };

export const Origin = z.enum(['human', 'ai']);
export const AiState = z.enum(['draft', 'accepted', 'rejected']).nullable();

/** The content a block replaced (review restores it), typed as generically as BlockContentValue. */
const PreviousContent: z.ZodType<BlockContentValue | null> = orNull(BlockContent).openapi({ description: 'The content this block replaced, or null' });

export const BlockMeta = z.object({
  id: Id,
  lessonId: Id.nullable(),
  position: Position,
  origin: Origin,
  aiState: AiState,
  provenance: orNull(Provenance),
  previous: PreviousContent,
  updatedAt: Timestamp,
});

/** A stored block as answered: its meta fields and the fields of its one content variant. */
export const StoredBlock: z.ZodType<StoredBlockValue> = blockUnion(BlockMeta.shape).openapi('Block');

/** A stored block: its meta fields and its content fields (one variant). */
export type StoredBlockValue = z.infer<typeof BlockMeta> & BlockContentValue;

// --- lessons -------------------------------------------------------------------------

export const Minutes = z.number().int().min(1).max(240);

export const Lesson = z
  .object({
    id: Id,
    moduleId: Id,
    courseId: Id,
    title: z.string(),
    minutes: Minutes,
    position: Position,
    status: Status,
    publishedAt: Timestamp.nullable(),
  })
  .openapi('Lesson');

export const LessonCreate = z.strictObject({ title: Title, minutes: Minutes });

export const LessonUpdate = z.strictObject({
  title: Title.optional(),
  minutes: Minutes.optional(),
  position: Position.optional(),
});

// --- assignments ---------------------------------------------------------------------

export const RubricLevel = z.strictObject({
  id: Id,
  title: Title,
  points: Points,
  description: z.string().max(5000).default(''),
});

export const RubricCriterion = z
  .strictObject({
    id: Id,
    title: Title,
    description: z.string().max(5000).default(''),
    levels: z.array(RubricLevel).min(1).max(20),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.levels.forEach((l, i) => {
      if (seen.has(l.id)) ctx.addIssue({ code: 'custom', path: ['levels', i, 'id'], message: `duplicate level id ${JSON.stringify(l.id)}` });
      seen.add(l.id);
    });
  })
  .openapi('RubricCriterion');

export const Rubric = z
  .array(RubricCriterion)
  .max(50)
  .superRefine((criteria, ctx) => {
    const seen = new Set<string>();
    criteria.forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate criterion id ${JSON.stringify(c.id)}` });
      seen.add(c.id);
    });
  });

export const SubmissionType = z.enum(['text', 'file', 'link']);

export const Assignment = z
  .object({
    id: Id,
    moduleId: Id,
    courseId: Id,
    title: z.string(),
    position: Position,
    status: Status,
    publishedAt: Timestamp.nullable(),
    dueAt: Timestamp.nullable(),
    points: z.number().min(0),
    submissionType: SubmissionType,
    categoryId: Id.nullable(),
    rubric: z.array(RubricCriterion),
    instructions: z.array(StoredBlock),
  })
  .openapi('Assignment');

export const AssignmentCreate = z.strictObject({
  title: Title,
  points: Points,
  submissionType: SubmissionType.default('text'),
  dueAt: TimestampInput.nullable().default(null),
  /** Absent: the setup's first category; null: no category. */
  categoryId: Id.nullable().optional(),
  position: Position.optional(),
  rubric: Rubric.default([]),
  instructions: z.array(BlockInput).max(500).default([]),
});

export const AssignmentUpdate = z.strictObject({
  title: Title.optional(),
  dueAt: TimestampInput.nullable().optional(),
  points: Points.optional(),
  rubric: Rubric.optional(),
  position: Position.optional(),
  instructions: z.array(BlockInput).max(500).optional(),
  submissionType: SubmissionType.optional(),
  categoryId: Id.nullable().optional(),
});

// --- submissions ---------------------------------------------------------------------

export const GradeCriterion = z.object({ criterionId: Id, levelId: Id, points: z.number(), comment: z.string() });

export const Grade = z
  .object({
    score: z.number().nullable(),
    criteria: z.array(GradeCriterion),
    feedback: z.string(),
    feedbackOrigin: Origin,
    feedbackProvenance: orNull(Provenance),
    gradedBy: Id.nullable(),
    gradedAt: Timestamp.nullable(),
    releasedAt: Timestamp.nullable(),
  })
  .openapi('Grade');

export const Submission = z
  .object({
    id: Id,
    assignmentId: Id,
    studentId: Id,
    attempt: z.number().int().min(1).max(MAX_INT),
    state: z.enum(['submitted', 'graded', 'returned']),
    text: z.string().nullable(),
    fileId: z.string().nullable(),
    link: z.string().nullable(),
    submittedAt: Timestamp,
    grade: orNull(Grade),
  })
  .openapi('Submission');

export const SubmissionCreate = z.strictObject({
  text: z.string().max(100_000).optional(),
  fileId: z.string().max(200).optional(),
  link: z.string().max(2048).optional(),
});

export const GradeInput = z.strictObject({
  score: Points.optional(),
  criteria: z
    .array(z.strictObject({ criterionId: Id, levelId: Id, comment: z.string().max(5000).default('') }))
    .max(50)
    .optional(),
  feedback: z.string().max(100_000).optional(),
});

// --- the one type per resource, inferred from its schema -------------------------------
export type LessonValue = z.infer<typeof Lesson>;
export type AssignmentValue = z.infer<typeof Assignment>;
/** An assignment as its own row holds it: everything but the instruction blocks. */
export type AssignmentRowValue = Omit<AssignmentValue, 'instructions'>;
export type RubricValue = z.infer<typeof Rubric>;
export type SubmissionValue = z.infer<typeof Submission>;
export type GradeValue = z.infer<typeof Grade>;
