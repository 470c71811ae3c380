import { z } from '@hono/zod-openapi';
import { Id, MAX_INT, TimestampInput, Version } from './common.js';
import { GradePoints, OpenPercent, Percent100, RoundedNumber } from './decimal.js';

export const CHECK_CODES = [
  'weights-not-100',
  'weight-invalid',
  'category-empty',
  'drop-exceeds-items',
  'drop-before-complete',
  'keep-at-least-invalid',
  'drop-count-invalid',
  'scheme-gap',
  'scheme-overlap',
  'scheme-order',
  'late-no-cap',
  'extra-credit-uncapped',
  'item-no-category',
  'item-zero-points',
  'missing-droppable',
  'mode-switch-extra-credit',
] as const;

export const CheckCode = z.enum(CHECK_CODES).openapi('CheckCode');

const Int = z.number().int().min(0).max(MAX_INT);

// Strict at every level: the spec forbids additional properties anywhere in the setup.
export const Category = z.strictObject({
  id: Id,
  courseId: Id,
  name: z.string().min(1).max(120),
  position: Int,
  weight: Percent100,
  drop: z.strictObject({ lowest: Int, highest: Int, keepAtLeast: z.number().int().min(1).max(MAX_INT) }),
  lateApplies: z.boolean(),
});

export const LatePolicy = z.strictObject({
  enabled: z.boolean(),
  percentPerPeriod: Percent100,
  period: z.enum(['day', 'hour']),
  basis: z.enum(['score', 'possible']),
  maxPeriods: Int.nullable(),
  afterMax: z.enum(['missing', 'hold-at-max']),
  graceMinutes: z.number().int().min(0).max(525_600),
});

export const MissingPolicy = z.strictObject({
  treatAs: z.enum(['zero-after-due', 'exclude-until-graded']),
  droppable: z.boolean(),
});

export const ExtraCredit = z.strictObject({
  categoryCapPercent: OpenPercent.nullable(),
  courseCapPoints: GradePoints.nullable(),
});

export const LetterScheme = z.strictObject({
  id: Id,
  name: z.string().min(1).max(120),
  bands: z
    .array(z.strictObject({ letter: z.string().min(1).max(12), min: z.number().min(0).max(100) }))
    .min(1)
    .max(50),
  rounding: z.strictObject({ decimals: z.literal(1), mode: z.literal('half-up') }),
  letterFrom: z.literal('rounded'),
});

export const DismissedCheck = z.strictObject({ code: CheckCode, target: z.string(), by: Id, at: TimestampInput });

export const GradebookSetup = z
  .strictObject({
    courseId: Id,
    mode: z.enum(['weighted', 'points']),
    categories: z.array(Category).max(100),
    late: LatePolicy,
    missing: MissingPolicy,
    extraCredit: ExtraCredit,
    scheme: LetterScheme,
    emptyCategory: z.literal('share-weight'),
    studentNotes: z.array(z.strictObject({ categoryId: Id, text: z.string().max(1000) })).max(100),
    dismissedChecks: z.array(DismissedCheck).max(200),
    source: z.strictObject({ kind: z.enum(['manual', 'syllabus']), designSessionId: Id.nullable() }),
    version: Version,
    rulesVersion: Version,
    updatedBy: z.string(),
    updatedAt: z.string(),
  })
  .openapi('GradebookSetup');

export type GradebookSetupValue = z.infer<typeof GradebookSetup>;

export const DismissBody = z.strictObject({ code: CheckCode, target: z.string() });

export const SetupCheck = z.object({ code: CheckCode, target: z.string(), message: z.string(), dismissed: z.boolean() }).openapi('SetupCheck');

export const ExportResult = z.object({ csv: z.string() }).openapi('GradebookExport');

// --- gradebook export and import (issue #13) ------------------------------------------

export const ExportQuery = z.object({
  layout: z.enum(['default', 'registrar']).default('default').openapi({ description: '`registrar`: Student ID, Student, Email, Final %, Final Letter only' }),
  bom: z
    .enum(['true', 'false'])
    .default('false')
    .openapi({ description: '`true`: start the CSV with a UTF-8 byte-order mark (for spreadsheet programs that need it)' }),
});

/** DELETE .../gradebook/categories/{categoryId}: the setup version the removal was decided on, and where the category's assignments go. */
export const RemoveCategoryQuery = z.object({
  expectedVersion: z.coerce.number().int().min(0).max(MAX_INT).openapi({ description: 'the setup version this removal was decided on (else conflict)' }),
  moveTo: Id.optional().openapi({ description: "another category of the setup: the removed category's assignments (and student notes) move there" }),
});

/** POST /courses/{courseId}/assignments/category: several assignments into one category (or none), all or nothing. */
export const AssignmentsCategoryBody = z
  .strictObject({
    categoryId: Id.nullable(),
    assignmentIds: z.array(Id).min(1).max(1000).optional(),
    moduleId: Id.optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.assignmentIds === undefined) === (body.moduleId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['assignmentIds'], message: 'give assignmentIds or moduleId (exactly one)' });
    }
  });

/** POST .../gradebook/import: the cells of a gradebook spreadsheet, parsed (coursebook gradebook import reads the CSV). */
export const GradesImportBody = z
  .strictObject({
    dryRun: z.boolean().default(false).openapi({ description: 'plan only: answer what would change and write nothing' }),
    expectedPlan: z.string().min(1).max(200).optional().openapi({ description: "a dry run's `plan`: refuse (conflict) if the plan would now be different" }),
    items: z
      .array(z.strictObject({ itemId: Id, column: z.number().int().min(1).max(MAX_INT).optional() }))
      .max(2000)
      .openapi({ description: 'item columns: assignment ids, with their 1-based column in the file (for messages)' }),
    rows: z
      .array(
        z.strictObject({
          studentId: Id,
          row: z.number().int().min(1).max(MAX_INT).optional(),
          scores: z.array(RoundedNumber.nullable()).max(2000),
        }),
      )
      .max(200_000)
      .openapi({ description: 'one per student: a score or null (blank: unchanged) per item column, and the 1-based row in the file' }),
  })
  .openapi('GradesImport');

const PlannedChange = z.object({
  studentId: Id,
  studentName: z.string(),
  itemId: Id,
  itemTitle: z.string(),
  row: z.number().int().nullable(),
  column: z.number().int().nullable(),
  action: z
    .enum(['regrade', 'grade', 'create'])
    .openapi({ description: 'regrade the latest attempt, grade it (it had no score), or create a graded submission' }),
  from: z.number().nullable().openapi({ description: 'what the export printed' }),
  to: z.number().openapi({ description: 'the score as entered, stored before any late deduction' }),
  after: z.number().nullable().openapi({ description: 'what the export prints afterwards (after the late policy)' }),
  late: z.object({ periods: z.number().int(), deduction: z.number() }).nullable(),
  status: z
    .enum(['graded', 'pending', 'missing', 'not-due'])
    .openapi({ description: "the item's status afterwards: missing when late past the cap with afterMax missing" }),
  submissionId: Id.nullable(),
});

export const GradesImportResult = z
  .object({
    dryRun: z.boolean(),
    plan: z.string().openapi({ description: "this plan's fingerprint; pass it back as expectedPlan" }),
    changes: z.array(PlannedChange),
    unchanged: z.number().int().openapi({ description: 'cells equal to what the export prints' }),
    blank: z.number().int().openapi({ description: 'blank cells (left as they are)' }),
  })
  .openapi('GradesImportResult');

export type GradesImportResultValue = z.infer<typeof GradesImportResult>;
