/**
 * The common unit of one course's grading arithmetic.
 *
 * Every score, points value, late deduction and extra credit of a course becomes an integer
 * count of one unit, 10^-digits points ("grade units"), so that every sum, comparison and
 * percentage is exact (no 0.1 + 0.2 artefacts):
 * - valueDigits (k) is the most decimal places of any points value, score of record or
 *   points-mode course cap, so each of those is a whole number of 10^-k ("value units");
 * - a late deduction of p% per period is p/100 x periods x basis, which is whole only in
 *   units 100 x 10^kp finer (kp: decimal places of p). lateFactor is that 100 x 10^kp, or 1
 *   when no late penalty can apply; grade units = value units x lateFactor.
 * Both factors are powers of ten, so a count of grade units is a terminating decimal and
 * converts back to the nearest JS number exactly (unitsToPoints).
 */
import { decimalsOf, type ExactInt, exactInt, hasAtMostDecimals, mul, toUnits, unitsToNumber } from './exact.js';
import type { SubmissionRecords } from './records.js';
import type { GradebookSetup, GradeItem } from './types.js';

/** An amount of points counted in a course's grade units: an exact integer. */
export type Units = ExactInt;

export interface GradeUnits {
  /** k: decimal places of the value units (10^-k points). */
  valueDigits: number;
  /** Grade units per value unit: 100 x 10^kp with late penalties, else 1. */
  lateFactor: ExactInt;
  /** percentPerPeriod in 10^-kp: a deduction in grade units is latePercent x periods x basis in value units. */
  latePercent: ExactInt;
  /** Decimal places of the grade unit: k, plus 2 + kp with late penalties. */
  digits: number;
}

/** The unit for these items, the scores of record and the setup's late policy and course cap. */
export function gradeUnitsFor(setup: GradebookSetup, items: readonly GradeItem[], records: SubmissionRecords): GradeUnits {
  let valueDigits = 0;
  for (const item of items) valueDigits = Math.max(valueDigits, decimalsOf(item.points));
  for (let cell = 0; cell < records.attempt.length; cell++) {
    if (records.attempt[cell]! > 0) {
      const score = records.score[cell]!;
      // Most scores have no more places than the most seen so far: one test, not a search.
      if (!Number.isInteger(score) && !hasAtMostDecimals(score, valueDigits)) valueDigits = Math.max(valueDigits, decimalsOf(score));
    }
  }
  const courseCap = setup.extraCredit.courseCapPoints;
  if (setup.mode === 'points' && courseCap !== null) valueDigits = Math.max(valueDigits, decimalsOf(courseCap));

  const { late } = setup;
  if (!(late.enabled && late.percentPerPeriod > 0)) return { valueDigits, lateFactor: 1, latePercent: 0, digits: valueDigits };
  const percentDigits = decimalsOf(late.percentPerPeriod);
  return {
    valueDigits,
    lateFactor: exactInt(10n ** BigInt(2 + percentDigits)),
    latePercent: toUnits(late.percentPerPeriod, percentDigits),
    digits: valueDigits + 2 + percentDigits,
  };
}

/** Points (a score, a points value, a cap) in value units, 10^-k. */
export const toValueUnits = (units: GradeUnits, points: number): ExactInt => toUnits(points, units.valueDigits);

/** Points in grade units. */
export const toGradeUnits = (units: GradeUnits, points: number): Units => mul(toUnits(points, units.valueDigits), units.lateFactor);

/** A count of grade units (over 10^extraDigits more, for a capped share) as the nearest JS number of points. */
export const unitsToPoints = (units: GradeUnits, amount: Units, extraDigits = 0): number => unitsToNumber(amount, units.digits + extraDigits);
