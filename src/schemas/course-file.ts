import { z } from '@hono/zod-openapi';
import { Id, MAX_INT, Provenance, TimestampInput } from './common.js';
import { AiState, BlockContent, blockUnion, Minutes, Origin, Rubric, Status, SubmissionType, TutorDefaults } from './content.js';
import { GradebookSetup } from './gradebook.js';

/** A block in a course file: content, optionally its id and review state. */
const FileBlock = blockUnion({
  id: Id.optional(),
  origin: Origin.optional(),
  aiState: AiState.optional(),
  provenance: Provenance.nullable().optional(),
  previous: BlockContent.nullable().optional(),
});

export const CourseFile = z
  .strictObject({
    coursebookCourse: z.literal(1),
    course: z.strictObject({
      id: Id.optional(),
      title: z.string().min(1).max(200),
      description: z.string().max(20_000).default(''),
      objectives: z.array(z.string().min(1).max(2000)).max(50).default([]),
      rubricId: Id.default('course-essentials'),
      tutorDefaults: TutorDefaults.default({ lesson: 'off', assignment: 'off' }),
      status: Status.default('draft'),
      publishedAt: TimestampInput.nullable().default(null),
    }),
    modules: z
      .array(
        z.strictObject({
          id: Id.optional(),
          title: z.string().min(1).max(200),
          objective: z.string().max(2000).default(''),
          status: Status.default('draft'),
          lessons: z
            .array(
              z.strictObject({
                id: Id.optional(),
                title: z.string().min(1).max(200),
                minutes: Minutes,
                status: Status.default('draft'),
                publishedAt: TimestampInput.nullable().default(null),
                blocks: z.array(FileBlock).max(500).default([]),
              }),
            )
            .max(200)
            .default([]),
          assignments: z
            .array(
              z.strictObject({
                id: Id.optional(),
                title: z.string().min(1).max(200),
                points: z.number().min(0).max(MAX_INT),
                dueAt: TimestampInput.nullable().default(null),
                submissionType: SubmissionType.default('text'),
                categoryId: Id.nullable().default(null),
                status: Status.default('draft'),
                publishedAt: TimestampInput.nullable().default(null),
                rubric: Rubric.default([]),
                instructions: z.array(FileBlock).max(500).default([]),
              }),
            )
            .max(200)
            .default([]),
        }),
      )
      .max(200)
      .default([]),
    gradebookSetup: GradebookSetup.optional(),
  })
  .openapi('CourseFile');

export type CourseFileValue = z.infer<typeof CourseFile>;
