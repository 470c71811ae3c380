/** The readiness tables: standards rubrics, AI findings, attestations. */
import type { AttestationValue, FindingValue, StandardsRubricValue } from '../schemas/readiness.js';
import { json, jsonText, nstr, requiredJson, str, table } from './table.js';

export const RUBRICS = table<StandardsRubricValue>({
  name: 'rubrics',
  key: ['id'],
  columns: ['id', 'body'],
  toRow: (r) => ({ id: r.id, body: JSON.stringify(r) }),
  fromRow: (r) => requiredJson<StandardsRubricValue>(r.body),
});

export const FINDINGS = table<FindingValue>({
  name: 'findings',
  key: ['course_id', 'item_id'],
  columns: ['course_id', 'item_id', 'verdict', 'evidence', 'suggestion', 'provenance', 'state', 'reviewed_by', 'reviewed_at', 'reviewed_by_name'],
  toRow: (f) => ({
    course_id: f.courseId,
    item_id: f.itemId,
    verdict: f.verdict,
    evidence: f.evidence,
    suggestion: f.suggestion,
    provenance: jsonText(f.provenance),
    state: f.state,
    reviewed_by: f.reviewedBy,
    reviewed_at: f.reviewedAt,
    reviewed_by_name: f.reviewedByName,
  }),
  fromRow: (r) => ({
    courseId: str(r.course_id),
    itemId: str(r.item_id),
    verdict: str(r.verdict),
    evidence: str(r.evidence),
    suggestion: str(r.suggestion),
    provenance: json(r.provenance, null),
    state: str(r.state),
    reviewedBy: nstr(r.reviewed_by),
    reviewedAt: nstr(r.reviewed_at),
    reviewedByName: nstr(r.reviewed_by_name),
  }),
});

export const ATTESTATIONS = table<AttestationValue>({
  name: 'attestations',
  key: ['course_id', 'rubric_id', 'item_id'],
  columns: ['course_id', 'rubric_id', 'item_id', 'status', 'by', 'by_name', 'note', 'at'],
  toRow: (a) => ({ course_id: a.courseId, rubric_id: a.rubricId, item_id: a.itemId, status: a.status, by: a.by, by_name: a.byName, note: a.note, at: a.at }),
  fromRow: (r) => ({
    courseId: str(r.course_id),
    itemId: str(r.item_id),
    rubricId: str(r.rubric_id),
    status: 'attested',
    by: str(r.by),
    byName: str(r.by_name),
    note: str(r.note),
    at: str(r.at),
  }),
});
