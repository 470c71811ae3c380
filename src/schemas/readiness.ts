import { z } from '@hono/zod-openapi';
import { Id, orNull, Provenance, Timestamp, TimestampInput } from './common.js';

export const RubricItem = z.strictObject({
  itemId: Id,
  number: z.string().min(1).max(20),
  text: z.string().min(1).max(2000),
  kind: z.enum(['automatic', 'ai', 'human']),
  essential: z.boolean(),
  check: z.string().min(1).optional(),
});

export const StandardsRubric = z
  .strictObject({
    id: Id,
    name: z.string().min(1).max(200),
    attribution: z.string().min(1).max(2000),
    standards: z
      .array(
        z.strictObject({ standardId: Id, number: z.string().min(1).max(20), title: z.string().min(1).max(500), items: z.array(RubricItem).min(1).max(100) }),
      )
      .min(1)
      .max(50),
  })
  .openapi('StandardsRubric');

export const Finding = z
  .object({
    verdict: z.enum(['met', 'not-met']),
    evidence: z.string(),
    suggestion: z.string(),
    provenance: orNull(Provenance),
    state: z.enum(['draft', 'accepted', 'rejected']),
    reviewedBy: z.string().nullable(),
    reviewedAt: Timestamp.nullable(),
    reviewedByName: z.string().nullable(),
  })
  .openapi('Finding');

export const FindingRecord = z.strictObject({
  courseId: Id,
  itemId: Id,
  verdict: z.enum(['met', 'not-met']),
  evidence: z.string().max(20_000),
  suggestion: z.string().max(20_000).default(''),
  provenance: orNull(Provenance).default(null),
  state: z.enum(['draft', 'accepted', 'rejected']).default('draft'),
  reviewedBy: z.string().nullable().default(null),
  reviewedAt: z.string().nullable().default(null),
  reviewedByName: z.string().nullable().default(null),
});

export const Attestation = z.object({ status: z.literal('attested'), by: Id, byName: z.string(), note: z.string(), at: Timestamp }).openapi('Attestation');

export const AttestationRecord = z.strictObject({
  courseId: Id,
  itemId: Id,
  rubricId: Id,
  status: z.literal('attested').default('attested'),
  by: Id,
  byName: z.string(),
  note: z.string().max(2000),
  at: z.string(),
});

export const AttestationBody = z.strictObject({ note: z.string().max(2000).optional(), rubricId: Id });

// --- readiness evidence travelling with a course's first copy (PUT .../content `readiness`) --

/**
 * An attestation as it travels: the record's fields without the course (the request's),
 * its time a timestamp like any input's and its names bounded.
 */
export const AttestationCopy = AttestationRecord.omit({ courseId: true })
  .extend({ byName: z.string().max(200), at: TimestampInput })
  .openapi('AttestationCopy');

/** A finding as it travels, its review included: the record's fields without the course, the review's checked as input. */
export const FindingCopy = FindingRecord.omit({ courseId: true })
  .extend({
    reviewedBy: Id.nullable().default(null),
    reviewedAt: TimestampInput.nullable().default(null),
    reviewedByName: z.string().max(200).nullable().default(null),
  })
  .openapi('FindingCopy');

/** The most items a rubric can hold (50 standards of 100 items), so the most of either list. */
const MAX_RUBRIC_ITEMS = 5000;

export const ReadinessEvidence = z
  .strictObject({
    attestations: z.array(AttestationCopy).max(MAX_RUBRIC_ITEMS).default([]),
    findings: z.array(FindingCopy).max(MAX_RUBRIC_ITEMS).default([]),
  })
  .openapi('ReadinessEvidence', {
    description:
      "The source copy's attestations and AI findings (with their reviews). Accepted only when the write creates the course (its first copy), and written before the publish gate; each copy keeps its own evidence afterwards.",
  });

// --- the readiness report (readiness.md), as computed by the domain and answered by the API --

/** Where a fix applies: the kind of thing, and its ids. */
export const FixTarget = z
  .object({
    kind: z.enum(['block', 'lesson', 'module', 'assignment', 'gradebook', 'course']),
    lessonId: Id.nullable().optional(),
    blockId: Id.optional(),
    moduleId: Id.optional(),
    assignmentId: Id.optional(),
  })
  .openapi('FixTarget');

export const ItemStatus = z.enum(['not-applicable', 'attested', 'met', 'not-met', 'likely-met', 'likely-not-met', 'pending']);
export const StandardStatus = z.enum(['not-applicable', 'met', 'needs-review', 'not-met']);

export const ReadinessItem = z
  .object({
    itemId: Id,
    number: z.string(),
    text: z.string(),
    kind: z.enum(['automatic', 'ai', 'human']),
    essential: z.boolean(),
    status: ItemStatus,
    evidence: z.array(z.string()),
    fixes: z.array(z.object({ label: z.string(), target: FixTarget })),
    finding: orNull(Finding),
    attestation: orNull(Attestation),
  })
  .openapi('ReadinessItem');

export const ReadinessReport = z
  .object({
    courseId: Id,
    rubricId: Id,
    rubricName: z.string().min(1),
    attribution: z.string().min(1),
    computedAt: Timestamp,
    met: z.number().int().min(0),
    applicable: z.number().int().min(0),
    percent: z.number().min(0).max(100),
    needsReview: z.number().int().min(0),
    standards: z.array(
      z.object({
        standardId: Id,
        number: z.string(),
        title: z.string(),
        met: z.number().int().min(0),
        applicable: z.number().int().min(0),
        status: StandardStatus,
        items: z.array(ReadinessItem),
      }),
    ),
    blocksPublishing: z.boolean(),
  })
  .openapi('ReadinessReport');

// --- the one type per resource, inferred from its schema -------------------------------
export type StandardsRubricValue = z.infer<typeof StandardsRubric>;
export type FindingValue = z.infer<typeof FindingRecord>;
export type AttestationValue = z.infer<typeof AttestationRecord>;
export type ReadinessEvidenceValue = z.infer<typeof ReadinessEvidence>;
export type FixTargetValue = z.infer<typeof FixTarget>;
export type ReadinessItemValue = z.infer<typeof ReadinessItem>;
export type ReadinessReportValue = z.infer<typeof ReadinessReport>;
