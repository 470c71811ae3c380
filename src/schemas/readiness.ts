import { z } from '@hono/zod-openapi';
import { Id, Provenance, Timestamp } from './common.js';

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
    provenance: Provenance.nullable(),
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
  provenance: Provenance.nullable().default(null),
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

export const ReadinessReport = z.any().openapi('ReadinessReport', {
  description: 'courseId, rubricId, rubricName, attribution, computedAt, met, applicable, percent, needsReview, standards[], blocksPublishing',
});

// --- the one type per resource, inferred from its schema -------------------------------
export type StandardsRubricValue = z.infer<typeof StandardsRubric>;
export type FindingValue = z.infer<typeof FindingRecord>;
export type AttestationValue = z.infer<typeof AttestationRecord>;
