/**
 * Courses and their modules: the schemas a course's own routes validate with. A module of
 * its own, apart from the rest of the content (blocks, lessons, assignments, rubrics,
 * submissions: schemas/content.ts), because constructing those schemas is about 5 ms of a
 * cold start that `courses list`, the commonest read, has no use for.
 */
import { z } from '@hono/zod-openapi';
import { Description, Id, Objective, Objectives, Position, Timestamp, Title } from './common.js';

export const TutorDefaults = z.strictObject({ lesson: z.enum(['off', 'on']), assignment: z.enum(['off', 'on']) });
export const Status = z.enum(['draft', 'published']);

export const Course = z
  .object({
    id: Id,
    title: z.string(),
    description: z.string(),
    status: Status,
    publishedAt: Timestamp.nullable(),
    objectives: z.array(z.string()),
    rubricId: Id,
    templateId: Id.nullable(),
    accessFloor: z.number().nullable().openapi({ description: "The template's accessFloor copied when the course was made from it" }),
    tutorDefaults: TutorDefaults,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Course');

export const CourseCreate = z.strictObject({
  id: Id.optional(),
  title: Title,
  description: Description.default(''),
  objectives: Objectives.default([]),
  rubricId: Id.optional(),
  tutorDefaults: TutorDefaults.default({ lesson: 'off', assignment: 'off' }),
});

export const CourseUpdate = z.strictObject({
  title: Title.optional(),
  description: Description.optional(),
  objectives: Objectives.optional(),
  rubricId: Id.optional(),
  tutorDefaults: TutorDefaults.optional(),
});

export const Module = z.object({ id: Id, courseId: Id, title: z.string(), objective: z.string(), position: Position, status: Status }).openapi('Module');

export const ModuleCreate = z.strictObject({
  title: Title,
  objective: Objective.default(''),
  position: Position.optional(),
});

export const ModuleUpdate = z.strictObject({
  title: Title.optional(),
  objective: Objective.optional(),
  position: Position.optional(),
});

export type CourseValue = z.infer<typeof Course>;
export type ModuleValue = z.infer<typeof Module>;
