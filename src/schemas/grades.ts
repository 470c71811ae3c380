/**
 * Computed grades as the gradebook routes answer them (the staff view and a student's own
 * view). The grading engine computes them; these schemas are the contract the OpenAPI
 * document states and the route handlers are type-checked against.
 */
import { z } from '@hono/zod-openapi';
import { Id, orNull, Timestamp } from './common.js';

export const GradeItemResult = z
  .object({
    itemId: Id,
    status: z.enum(['graded', 'pending', 'missing', 'not-due']),
    score: z.number().nullable().openapi({ description: 'The score of record, or null' }),
    effectiveScore: z.number().nullable().openapi({ description: 'After the late deduction; 0 for missing work that counts as zero; null when excluded' }),
    late: z.object({ periods: z.number().int().min(0), deduction: z.number() }).nullable(),
    dropped: z.enum(['lowest', 'highest']).nullable(),
    counted: z.boolean(),
  })
  .openapi('GradeItemResult');

export const GradeCategoryResult = z
  .object({
    categoryId: Id,
    name: z.string(),
    earned: z.number(),
    possible: z.number(),
    extraCredit: z.number(),
    percent: z.number().nullable().openapi({ description: 'Rounded to 1 decimal, half-up; null when the category is empty for this student' }),
    empty: z.boolean(),
  })
  .openapi('GradeCategoryResult');

/** One student's computed grade. */
const studentResult = {
  studentId: Id,
  studentName: z.string(),
  categories: z.array(GradeCategoryResult),
  percent: z.number().nullable().openapi({ description: 'The course percentage, rounded to 1 decimal half-up, or null' }),
  letter: z.string().nullable(),
  items: z.array(GradeItemResult).optional(),
};

export const FinalOverrideView = z
  .object({ percent: z.number().nullable(), letter: z.string().nullable(), version: z.number().int().min(1) })
  .openapi('FinalOverride');

export const CourseGrades = z
  .object({
    courseId: Id,
    computedAt: Timestamp,
    mode: z.enum(['weighted', 'points']),
    rulesVersion: z.number().int().min(0),
    students: z.array(
      z.object({
        ...studentResult,
        override: orNull(FinalOverrideView),
        finalPercent: z.number().nullable().openapi({ description: 'The override percent when there is one, else the calculated percent' }),
        finalLetter: z.string().nullable(),
      }),
    ),
  })
  .openapi('CourseGrades');

export const StudentGrades = z
  .object({ courseId: Id, computedAt: Timestamp, ...studentResult })
  .openapi('StudentGrades', { description: "A student's own grades, counting released grades only" });

export type CourseGradesValue = z.infer<typeof CourseGrades>;
export type StudentGradesValue = z.infer<typeof StudentGrades>;
