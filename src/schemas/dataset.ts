import { z } from '@hono/zod-openapi';
import { Description, Id, MAX_INT, Objective, Objectives, orNull, PersonName, Points, Position, Provenance, TimestampInput, Title } from './common.js';
import { AiState, blockUnion, Minutes, Origin, Rubric, SubmissionType } from './content.js';
import { Status, TutorDefaults } from './courses.js';
import { FinalGradeHistoryEntry, FinalGradeRecord } from './final-grades.js';
import { GradebookSetup } from './gradebook.js';
import { CourseRole, ScopeSchema } from './people.js';
import { AttestationRecord, FindingRecord, StandardsRubric } from './readiness.js';
import { TemplateBlock, TemplateLesson, TemplateOwner } from './templates.js';

/**
 * The dataset file of cli-and-serve.md (fixtures, import, dump). Records use the resource
 * shapes with their ids. Fields a fixture author rarely cares about have defaults (status,
 * timestamps, positions by order of appearance); a dump always writes every field, so
 * dump -> import -> dump is byte-identical.
 */
const Ts = TimestampInput;

const BlockMetaRecord = {
  id: Id,
  position: Position.optional(),
  origin: Origin.default('human'),
  aiState: AiState.default(null),
  provenance: orNull(Provenance).default(null),
  previous: z.any().nullable().default(null),
  updatedAt: Ts.optional(),
};

export const LessonBlockRecord = blockUnion({ ...BlockMetaRecord, lessonId: Id });
export const InstructionBlockRecord = blockUnion({ ...BlockMetaRecord, lessonId: z.null().optional() });

export const DatasetUser = z.strictObject({ id: Id, name: PersonName, email: z.string().max(320).nullable().default(null), admin: z.boolean().default(false) });

export const DatasetToken = z
  .strictObject({
    id: Id.optional(),
    token: z.string().min(1).max(4096).optional(),
    tokenSha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits')
      .optional(),
    userId: Id,
    scopes: z.array(ScopeSchema).min(1),
    name: z.string().max(200).default(''),
    createdAt: Ts.optional(),
    expiresAt: Ts.nullable().default(null),
    revokedAt: Ts.nullable().default(null),
    lastUsedAt: Ts.nullable().default(null),
  })
  .superRefine((t, ctx) => {
    if ((t.token === undefined) === (t.tokenSha256 === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'give exactly one of token and tokenSha256' });
    }
  });

export const DatasetCourse = z.strictObject({
  id: Id,
  title: Title,
  description: Description.default(''),
  status: Status.default('draft'),
  publishedAt: Ts.nullable().default(null),
  objectives: Objectives.default([]),
  rubricId: Id.default('course-essentials'),
  templateId: Id.nullable().default(null),
  accessFloor: z.number().min(0).max(100).nullable().default(null),
  tutorDefaults: TutorDefaults.default({ lesson: 'off', assignment: 'off' }),
  createdAt: Ts.optional(),
  updatedAt: Ts.optional(),
});

export const DatasetEnrollment = z.strictObject({ courseId: Id, userId: Id, role: CourseRole });

export const DatasetModule = z.strictObject({
  id: Id,
  courseId: Id,
  title: Title,
  objective: Objective.default(''),
  position: Position.optional(),
  status: Status.default('draft'),
});

export const DatasetLesson = z.strictObject({
  id: Id,
  moduleId: Id,
  courseId: Id.optional(),
  title: Title,
  minutes: Minutes,
  position: Position.optional(),
  status: Status.default('draft'),
  publishedAt: Ts.nullable().default(null),
});

export const DatasetAssignment = z.strictObject({
  id: Id,
  moduleId: Id,
  courseId: Id.optional(),
  title: Title,
  position: Position.optional(),
  status: Status.default('draft'),
  publishedAt: Ts.nullable().default(null),
  dueAt: Ts.nullable().default(null),
  points: Points,
  submissionType: SubmissionType.default('text'),
  categoryId: Id.nullable().default(null),
  rubric: Rubric.default([]),
  instructions: z.array(InstructionBlockRecord).max(500).default([]),
});

export const DatasetGrade = z.strictObject({
  score: Points.nullable().default(null),
  criteria: z.array(z.strictObject({ criterionId: Id, levelId: Id, points: Points, comment: z.string().default('') })).default([]),
  feedback: z.string().default(''),
  feedbackOrigin: Origin.default('human'),
  feedbackProvenance: orNull(Provenance).default(null),
  gradedBy: Id.nullable().default(null),
  gradedAt: Ts.nullable().default(null),
  releasedAt: Ts.nullable().default(null),
});

export const DatasetSubmission = z.strictObject({
  id: Id,
  assignmentId: Id,
  studentId: Id,
  attempt: z.number().int().min(1).max(MAX_INT),
  state: z.enum(['submitted', 'graded', 'returned']).optional(),
  text: z.string().max(100_000).nullable().default(null),
  fileId: z.string().max(200).nullable().default(null),
  link: z.string().max(2048).nullable().default(null),
  submittedAt: Ts,
  grade: DatasetGrade.nullable().default(null),
});

export const DatasetFinalGradeHistory = FinalGradeHistoryEntry;

export const DatasetTemplate = z.strictObject({
  id: Id,
  name: z.string().min(1).max(120),
  description: Description.default(''),
  owner: TemplateOwner.default({ kind: 'institution' }),
  modules: z
    .array(
      z.strictObject({
        key: z.string().min(1).max(120),
        title: Title,
        placement: z.enum(['start', 'end']).default('start'),
        objective: Objective.default(''),
        lessons: z.array(TemplateLesson).max(100).default([]),
      }),
    )
    .max(20)
    .default([]),
  tutorDefaults: TutorDefaults.default({ lesson: 'off', assignment: 'off' }),
  accessFloor: z.number().min(0).max(100).default(0),
  updatedBy: z.string().default(''),
  updatedAt: Ts.optional(),
});

export const DatasetCertificate = z.strictObject({
  id: Id,
  code: z
    .string()
    .regex(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/, 'must be 12 Crockford base32 characters grouped XXXX-XXXX-XXXX'),
  userId: Id,
  learnerName: z.string().min(1),
  courseId: Id,
  courseTitle: z.string().min(1),
  issuedAt: Ts,
  basis: z.enum(['completed', 'tested-out']),
  replaces: Id.nullable().default(null),
  replacedBy: Id.nullable().default(null),
  replaceReason: z.string().nullable().default(null),
});

export const DatasetReportingLine = z.strictObject({ managerId: Id, reportId: Id, createdBy: z.string().default(''), createdAt: Ts.optional() });

export const Dataset = z
  .strictObject({
    coursebook: z.literal(1),
    users: z.array(DatasetUser).default([]),
    tokens: z.array(DatasetToken).default([]),
    courses: z.array(DatasetCourse).default([]),
    enrollments: z.array(DatasetEnrollment).default([]),
    modules: z.array(DatasetModule).default([]),
    lessons: z.array(DatasetLesson).default([]),
    blocks: z.array(LessonBlockRecord).default([]),
    assignments: z.array(DatasetAssignment).default([]),
    submissions: z.array(DatasetSubmission).default([]),
    gradebookSetups: z.array(GradebookSetup).default([]),
    finalGrades: z.array(FinalGradeRecord).default([]),
    finalGradeHistory: z.array(DatasetFinalGradeHistory).default([]),
    rubrics: z.array(StandardsRubric).default([]),
    findings: z.array(FindingRecord).default([]),
    attestations: z.array(AttestationRecord).default([]),
    templates: z.array(DatasetTemplate).default([]),
    certificates: z.array(DatasetCertificate).default([]),
    reportingLines: z.array(DatasetReportingLine).default([]),
  })
  .openapi('Dataset');

export type DatasetValue = z.infer<typeof Dataset>;
export type DatasetInput = z.input<typeof Dataset>;

export { TemplateBlock };
