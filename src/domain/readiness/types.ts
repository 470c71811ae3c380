/** Types of the readiness domain (readiness.md); resources are the schemas' own types. */
import type { AssignmentValue, StoredBlockValue } from '../../schemas/content.js';
import type { AttestationValue, FindingValue, StandardsRubricValue } from '../../schemas/readiness.js';

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

export interface FixTarget {
  kind: 'block' | 'lesson' | 'module' | 'assignment' | 'gradebook' | 'course';
  lessonId?: string | null;
  blockId?: string;
  moduleId?: string;
  assignmentId?: string;
}

export interface CheckResult {
  applicable: boolean;
  /** One sentence per offending place, with its fix; empty when met. */
  problems: { evidence: string; fix: { label: string; target: FixTarget } }[];
}

export type ItemStatus = 'not-applicable' | 'attested' | 'met' | 'not-met' | 'likely-met' | 'likely-not-met' | 'pending';
export type StandardStatus = 'not-applicable' | 'met' | 'needs-review' | 'not-met';

export interface ReportItem {
  itemId: string;
  number: string;
  text: string;
  kind: RubricItem['kind'];
  essential: boolean;
  status: ItemStatus;
  evidence: string[];
  fixes: { label: string; target: FixTarget }[];
  finding: Omit<Finding, 'itemId'> | null;
  attestation: Omit<Attestation, 'itemId'> | null;
}

export interface ReadinessReport {
  courseId: string;
  rubricId: string;
  rubricName: string;
  attribution: string;
  computedAt: string;
  met: number;
  applicable: number;
  percent: number;
  needsReview: number;
  standards: { standardId: string; number: string; title: string; met: number; applicable: number; status: StandardStatus; items: ReportItem[] }[];
  blocksPublishing: boolean;
}
