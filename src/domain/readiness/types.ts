/** Plain types of the readiness domain (readiness.md). */
export interface RubricItem {
  itemId: string;
  number: string;
  text: string;
  kind: 'automatic' | 'ai' | 'human';
  essential: boolean;
  check?: string;
}

export interface Rubric {
  id: string;
  name: string;
  attribution: string;
  standards: { standardId: string; number: string; title: string; items: RubricItem[] }[];
}

export interface Block {
  id: string;
  lessonId: string | null;
  position: number;
  type: string;
  aiState: 'draft' | 'accepted' | 'rejected' | null;
  [field: string]: unknown;
}

export interface Finding {
  itemId: string;
  verdict: 'met' | 'not-met';
  evidence: string;
  suggestion: string;
  provenance: unknown;
  state: 'draft' | 'accepted' | 'rejected';
  reviewedBy: string | null;
  reviewedAt: string | null;
  reviewedByName: string | null;
}

export interface Attestation {
  itemId: string;
  status: 'attested';
  by: string;
  byName: string;
  note: string;
  at: string;
}

export interface ReadinessInput {
  rubric: Rubric;
  course: { id: string; title: string; description: string; objectives: string[] };
  modules: { id: string; title: string; objective: string; position: number }[];
  lessons: { id: string; moduleId: string; title: string; position: number; status: 'draft' | 'published' }[];
  blocks: Block[];
  assignments: { id: string; moduleId: string; title: string; position: number; status: 'draft' | 'published'; points: number; dueAt: string | null; rubric: unknown[]; instructions: Block[] }[];
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
