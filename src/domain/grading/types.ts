/**
 * Types of the grading domain. The setup and its parts are the schemas' own types (one type
 * per resource); the engine's inputs and results that no API body carries are declared here.
 */
import type { z } from '@hono/zod-openapi';
import type {
  Category as CategorySchema,
  CheckCode as CheckCodeSchema,
  ExtraCredit as ExtraCreditSchema,
  GradebookSetupValue,
  LatePolicy as LatePolicySchema,
  LetterScheme as LetterSchemeSchema,
  MissingPolicy as MissingPolicySchema,
  SetupCheck as SetupCheckSchema,
} from '../../schemas/gradebook.js';

export type CheckCode = z.infer<typeof CheckCodeSchema>;
export type Category = z.infer<typeof CategorySchema>;
export type LatePolicy = z.infer<typeof LatePolicySchema>;
export type MissingPolicy = z.infer<typeof MissingPolicySchema>;
export type ExtraCredit = z.infer<typeof ExtraCreditSchema>;
export type LetterScheme = z.infer<typeof LetterSchemeSchema>;
export type GradebookSetup = GradebookSetupValue;
export type SetupCheck = z.infer<typeof SetupCheckSchema>;

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
