/**
 * Final-grade overrides: a PUT's body and answer, the stored record (datasets carry it) and
 * the append-only history. A module of their own, apart from the gradebook setup's schemas:
 * `gradebook final set`, the command instructors run in loops, builds only these at start.
 */
import { z } from '@hono/zod-openapi';
import { Id, MAX_EXPECTED_VERSION, MAX_INT } from './common.js';
import { OpenPercent } from './decimal.js';

export const FinalGradeBody = z.strictObject({
  reason: z.string().min(1).max(1000),
  expectedVersion: z.number().int().min(0).max(MAX_EXPECTED_VERSION),
  letter: z.string().min(1).max(12).nullable().optional(),
  percent: OpenPercent.nullable().optional(),
});

export const FinalGradeResult = z.object({ ok: z.boolean(), version: z.number().int() }).openapi('FinalGradeResult');

export const FinalGradeRecord = z.strictObject({
  courseId: Id,
  studentId: Id,
  letter: z.string().min(1).max(12).nullable(),
  percent: OpenPercent.nullable(),
  reason: z.string().max(1000),
  // The largest version a PUT can follow (its expectedVersion bound), so every imported override stays writable.
  version: z.number().int().min(0).max(MAX_EXPECTED_VERSION),
  updatedBy: z.string(),
  updatedAt: z.string(),
});

/** One entry of a student's append-only final-grade history. */
export const FinalGradeHistoryEntry = z.strictObject({
  courseId: Id,
  studentId: Id,
  version: z.number().int().min(1).max(MAX_INT),
  oldLetter: z.string().nullable(),
  oldPercent: z.number().nullable(),
  newLetter: z.string().nullable(),
  newPercent: z.number().nullable(),
  reason: z.string(),
  by: z.string(),
  at: z.string(),
});

export type FinalGradeValue = z.infer<typeof FinalGradeRecord>;
export type FinalGradeHistoryValue = z.infer<typeof FinalGradeHistoryEntry>;
