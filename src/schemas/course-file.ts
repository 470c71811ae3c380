import { z } from '@hono/zod-openapi';
import { Description, Id, Objective, Objectives, orNull, Points, Provenance, TimestampInput, Title } from './common.js';
import { AiState, BlockContent, blockUnion, Minutes, Origin, Rubric, SubmissionType } from './content.js';
import { Status, TutorDefaults } from './courses.js';
import { GradebookSetup } from './gradebook.js';

// The file's parts are named components, so the OpenAPI document describes them once and the
// three schemas made of them (the course file, the course content and its write) refer to
// them, instead of each carrying its own 75 KB copy.

/** A block in a course file: content, optionally its id and review state. */
const FileBlock = blockUnion({
  id: Id.optional(),
  origin: Origin.optional(),
  aiState: AiState.optional(),
  provenance: orNull(Provenance).optional(),
  previous: orNull(BlockContent).optional(),
}).openapi('CourseFileBlock');

const FileLesson = z
  .strictObject({
    id: Id.optional(),
    title: Title,
    minutes: Minutes,
    status: Status.default('draft'),
    publishedAt: TimestampInput.nullable().default(null),
    blocks: z.array(FileBlock).max(500).default([]),
  })
  .openapi('CourseFileLesson');

const FileAssignment = z
  .strictObject({
    id: Id.optional(),
    title: Title,
    points: Points,
    dueAt: TimestampInput.nullable().default(null),
    submissionType: SubmissionType.default('text'),
    // Absent: the setup's first category (the file's setup, else the default); null: none.
    categoryId: Id.nullable().optional(),
    status: Status.default('draft'),
    publishedAt: TimestampInput.nullable().default(null),
    rubric: Rubric.default([]),
    instructions: z.array(FileBlock).max(500).default([]),
  })
  .openapi('CourseFileAssignment');

const FileModule = z
  .strictObject({
    id: Id.optional(),
    title: Title,
    objective: Objective.default(''),
    status: Status.default('draft'),
    lessons: z.array(FileLesson).max(200).default([]),
    assignments: z.array(FileAssignment).max(200).default([]),
  })
  .openapi('CourseFileModule');

export const CourseFile = z
  .strictObject({
    coursebookCourse: z.literal(1),
    course: z.strictObject({
      id: Id.optional(),
      title: Title,
      description: Description.default(''),
      objectives: Objectives.default([]),
      rubricId: Id.default('course-essentials'),
      tutorDefaults: TutorDefaults.default({ lesson: 'off', assignment: 'off' }),
      status: Status.default('draft'),
      publishedAt: TimestampInput.nullable().default(null),
    }),
    modules: z.array(FileModule).max(200).default([]),
    gradebookSetup: GradebookSetup.optional(),
  })
  .openapi('CourseFile');

export type CourseFileValue = z.infer<typeof CourseFile>;
