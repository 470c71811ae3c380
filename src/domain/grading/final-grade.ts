/**
 * The final-grade rule, one function for every reader (the staff grades view and the
 * export). An override percent is rounded like every other percentage, half-up to tenths by
 * its decimal digits (89.96 -> 90.0, 89.95 -> 90.0, 89.94 -> 89.9); the final letter comes
 * from that rounded value, unless a letter override is given. An override never changes the
 * calculated grade.
 */
import { roundDecimalToTenths } from '../rounding.js';
import { letterFor } from './letters.js';
import type { LetterScheme } from './types.js';

export interface FinalGradeInput {
  /** The computed course percentage (already rounded to tenths), or null. */
  calculatedPercent: number | null;
  /** The student's override as stored, if any. */
  override: { percent: number | null; letter: string | null } | null;
  scheme: LetterScheme;
}

export interface FinalGrade {
  /** The override percent rounded to tenths, or null without one. */
  overridePercent: number | null;
  finalPercent: number | null;
  finalLetter: string | null;
}

export function finalGrade({ calculatedPercent, override, scheme }: FinalGradeInput): FinalGrade {
  const overridePercent = override?.percent != null ? roundDecimalToTenths(override.percent) : null;
  const finalPercent = overridePercent ?? calculatedPercent;
  return { overridePercent, finalPercent, finalLetter: override?.letter ?? letterFor(scheme, finalPercent) };
}
