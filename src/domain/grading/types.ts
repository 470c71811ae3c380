/** Plain structural types of the grading domain (the API's zod types have the same shape). */
export type CheckCode =
  | 'weights-not-100'
  | 'weight-invalid'
  | 'category-empty'
  | 'drop-exceeds-items'
  | 'drop-before-complete'
  | 'keep-at-least-invalid'
  | 'drop-count-invalid'
  | 'scheme-gap'
  | 'scheme-overlap'
  | 'scheme-order'
  | 'late-no-cap'
  | 'extra-credit-uncapped'
  | 'item-no-category'
  | 'item-zero-points'
  | 'missing-droppable'
  | 'mode-switch-extra-credit';

export interface Category {
  id: string;
  courseId: string;
  name: string;
  position: number;
  weight: number;
  drop: { lowest: number; highest: number; keepAtLeast: number };
  lateApplies: boolean;
}

export interface LatePolicy {
  enabled: boolean;
  percentPerPeriod: number;
  period: 'day' | 'hour';
  basis: 'score' | 'possible';
  maxPeriods: number | null;
  afterMax: 'missing' | 'hold-at-max';
  graceMinutes: number;
}

export interface MissingPolicy {
  treatAs: 'zero-after-due' | 'exclude-until-graded';
  droppable: boolean;
}

export interface ExtraCredit {
  categoryCapPercent: number | null;
  courseCapPoints: number | null;
}

export interface LetterScheme {
  id: string;
  name: string;
  bands: { letter: string; min: number }[];
  rounding: { decimals: 1; mode: 'half-up' };
  letterFrom: 'rounded';
}

export interface GradebookSetup {
  courseId: string;
  mode: 'weighted' | 'points';
  categories: Category[];
  late: LatePolicy;
  missing: MissingPolicy;
  extraCredit: ExtraCredit;
  scheme: LetterScheme;
  emptyCategory: 'share-weight';
  studentNotes: { categoryId: string; text: string }[];
  dismissedChecks: { code: CheckCode; target: string; by: string; at: string }[];
  source: { kind: 'manual' | 'syllabus'; designSessionId: string | null };
  version: number;
  rulesVersion: number;
  updatedBy: string;
  updatedAt: string;
}

/** A published assignment. */
export interface GradeItem {
  id: string;
  title: string;
  categoryId: string | null;
  points: number;
  dueAt: string | null;
  moduleId: string;
  modulePosition: number;
  position: number;
}

export interface GradeStudent {
  id: string;
  name: string;
  /** The registrar export's Email column (grading never reads it). */
  email?: string | null;
}

export interface GradeSubmission {
  assignmentId: string;
  studentId: string;
  attempt: number;
  submittedAt: string;
  /** null: not graded (or graded without a score). */
  score: number | null;
  releasedAt: string | null;
}

export interface FinalOverride {
  studentId: string;
  percent: number | null;
  letter: string | null;
}

export interface SetupCheck {
  code: CheckCode;
  target: string;
  message: string;
  dismissed: boolean;
}

export type ItemStatus = 'graded' | 'pending' | 'missing' | 'not-due';

export interface ItemResult {
  itemId: string;
  status: ItemStatus;
  /** Score of record, or null. */
  score: number | null;
  /** After late deduction; 0 for a missing item that counts as zero; null when excluded. */
  effectiveScore: number | null;
  late: { periods: number; deduction: number } | null;
  dropped: 'lowest' | 'highest' | null;
  /** Counts toward its category (kept graded or missing-zero items, and extra credit). */
  counted: boolean;
}

export interface CategoryResult {
  categoryId: string;
  name: string;
  earned: number;
  possible: number;
  /** Extra credit after the category cap (weighted mode). */
  extraCredit: number;
  /** Rounded to 1 decimal, half-up; null when the category is empty for this student. */
  percent: number | null;
  empty: boolean;
}

export interface StudentGrades {
  studentId: string;
  studentName: string;
  categories: CategoryResult[];
  /** Course percentage rounded to 1 decimal half-up, or null. */
  percent: number | null;
  letter: string | null;
  /** Per-item detail, in item order (present when computed with detail). */
  items?: ItemResult[];
  /**
   * Per item in input order: the export cell value (effective score, 0 for missing zeros,
   * NaN for an empty cell). Doubles in one typed array: a number array per student holds
   * its non-integer values as separate heap objects, tens of MB for a large export.
   */
  cells: Float64Array;
}

export interface CourseGrades {
  students: StudentGrades[];
}
