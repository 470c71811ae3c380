/** Types of the readiness domain (readiness.md); resources are the schemas' own types. */
import type { AssignmentValue, StoredBlockValue } from '../../schemas/content.js';
import type {
  AttestationValue,
  FindingValue,
  FixTargetValue,
  ReadinessItemValue,
  ReadinessReportValue,
  StandardsRubricValue,
} from '../../schemas/readiness.js';

export type Rubric = StandardsRubricValue;
export type RubricItem = Rubric['standards'][number]['items'][number];
export type Block = StoredBlockValue;
/** A finding as the report reads it (its course is the report's). */
export type Finding = Omit<FindingValue, 'courseId'>;
export type Attestation = Omit<AttestationValue, 'courseId' | 'rubricId'>;

export interface ReadinessInput {
  rubric: Rubric;
  course: { id: string; title: string; description: string; objectives: string[] };
  modules: { id: string; title: string; objective: string; position: number }[];
  lessons: { id: string; moduleId: string; title: string; position: number; status: 'draft' | 'published' }[];
  blocks: Block[];
  assignments: Pick<AssignmentValue, 'id' | 'moduleId' | 'title' | 'position' | 'status' | 'points' | 'dueAt' | 'rubric' | 'instructions'>[];
  openSetupChecks: { code: string; target: string; message: string }[];
  findings: Finding[];
  attestations: Attestation[];
  accessFloor: number | null;
  now: string;
}

export type FixTarget = FixTargetValue;

export interface CheckResult {
  applicable: boolean;
  /** One sentence per offending place, with its fix; empty when met. */
  problems: { evidence: string; fix: { label: string; target: FixTarget } }[];
}

export type ItemStatus = ReadinessItemValue['status'];
export type StandardStatus = ReadinessReportValue['standards'][number]['status'];
/** The report's shape is its schema's (schemas/readiness.ts), which the API answers. */
export type ReportItem = ReadinessItemValue;
export type ReadinessReport = ReadinessReportValue;
