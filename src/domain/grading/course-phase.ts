/**
 * Phase 3, per student (grading.md, "Course"): the course percentage from the category
 * totals, weighted by category or by points, rounded half-up to tenths.
 */
import { roundFractionToTenths } from '../rounding.js';
import type { CategoryTotals } from './category-phase.js';
import { add, decimalsOf, type ExactInt, mul, toUnitsBig } from './exact.js';
import { type GradeUnits, toGradeUnits, type Units } from './grade-units.js';
import type { GradebookSetup } from './types.js';

/** What the course rules need of a course, computed once for all its students. */
export type CourseRules =
  | {
      mode: 'weighted';
      /** Category weights as integers in 10^-d, and 100% in the same unit. */
      weights: bigint[];
      hundredPercent: bigint;
    }
  | {
      mode: 'points';
      /** courseCapPoints in grade units: the most extra credit the course counts. */
      extraCreditCap: Units | null;
    };

export function courseRulesFor(setup: GradebookSetup, units: GradeUnits): CourseRules {
  if (setup.mode === 'points') {
    const cap = setup.extraCredit.courseCapPoints;
    return { mode: 'points', extraCreditCap: cap === null ? null : toGradeUnits(units, cap) };
  }
  const digits = Math.max(0, ...setup.categories.map((c) => decimalsOf(c.weight)));
  return { mode: 'weighted', weights: setup.categories.map((c) => toUnitsBig(c.weight, digits)), hundredPercent: 100n * 10n ** BigInt(digits) };
}

export function coursePercent(rules: CourseRules, totals: CategoryTotals): number | null {
  if (rules.mode === 'weighted') return weightedCoursePercent(totals.percentNum, totals.percentDen, rules.weights, rules.hundredPercent);
  let earned: Units = 0;
  let possible: Units = 0;
  let extraCredit: Units = 0;
  for (let c = 0; c < totals.possible.length; c++) {
    earned = add(earned, totals.earned[c]!);
    possible = add(possible, totals.possible[c]!);
    extraCredit = add(extraCredit, totals.extraCredit[c]!);
  }
  if (!(possible > 0)) return null;
  const cap = rules.extraCreditCap;
  const counted = cap !== null && extraCredit > cap ? cap : extraCredit;
  return roundFractionToTenths(mul(100, add(earned, counted)), possible);
}

/**
 * The weighted course percentage, sum(w x category %) / min(sum of the non-empty weights,
 * 100), rounded half-up to tenths; null when every category is empty. The double estimate
 * of it in tenths, t, adds n positive terms in about n + 8 correctly rounded operations, so
 * its error is below t x (n + 10) x 2^-53; while t x (n + 10) < 1e9 that is below 1.2e-7.
 * When the estimate is then more than 1e-6 away from a rounding boundary it decides the
 * rounding; otherwise the exact BigInt sum does (also when a value is past the double range). Either way the result is exact.
 */
export function weightedCoursePercent(percentNum: ExactInt[], percentDen: ExactInt[], weights: bigint[], hundredPercent: bigint): number | null {
  let weightSum = 0n;
  let estimate = 0;
  let terms = 0;
  for (let c = 0; c < percentNum.length; c++) {
    if (percentDen[c] === 0) continue;
    weightSum += weights[c]!;
    terms++;
    const den = Number(percentDen[c]!);
    estimate += den === Infinity ? NaN : Number(weights[c]!) * (Number(percentNum[c]!) / den);
  }
  if (weightSum <= 0n) return null;
  const divisor = weightSum < hundredPercent ? weightSum : hundredPercent;
  // Beyond the double range the estimate is NaN and the exact sum decides.
  const tenthsPlusHalf = Number(divisor) === Infinity ? NaN : (estimate / Number(divisor)) * 10 + 0.5;
  const fraction = tenthsPlusHalf - Math.floor(tenthsPlusHalf);
  if (fraction > 1e-6 && fraction < 1 - 1e-6 && tenthsPlusHalf * (terms + 10) < 1e9) return Math.floor(tenthsPlusHalf) / 10;
  let sumNum = 0n;
  let sumDen = 1n;
  for (let c = 0; c < percentNum.length; c++) {
    if (percentDen[c] === 0) continue;
    const num = BigInt(percentNum[c]!);
    const den = BigInt(percentDen[c]!);
    sumNum = sumNum * den + weights[c]! * num * sumDen;
    sumDen *= den;
  }
  return roundFractionToTenths(sumNum, sumDen * divisor);
}
