/**
 * Phase 2, per category and student (grading.md, "Per category, per student"): drops, the
 * category's earned and possible points, its extra credit after the category cap, and its
 * percentage as an exact fraction (rounded only for display).
 */
import { roundFractionToTenths } from '../rounding.js';
import { chooseDrops } from './drops.js';
import { add, decimalsOf, type ExactInt, exactInt, min, mul, toUnits } from './exact.js';
import { type GradeUnits, type Units, unitsToPoints } from './grade-units.js';
import { DROPPED_HIGHEST, DROPPED_LOWEST, type ItemGrades } from './item-phase.js';
import type { Category, CategoryResult, GradebookSetup } from './types.js';

/**
 * Weighted mode's cap on a category's extra credit, categoryCapPercent c as the fraction
 * num / den of its possible points: capped X = min(X, Q x num / den) = min(X, c/100 x Q),
 * with den = 10^digits.
 */
export interface ExtraCreditCap {
  num: ExactInt;
  den: ExactInt;
  digits: number;
}

/** What the per-category rules need of a course, computed once for all its students. */
export interface CategoryRules {
  categories: Category[];
  /** Course-order indexes of each category's items. */
  itemsOf: number[][];
  /** Points of each item (course order) in grade units. */
  possibleUnits: Units[];
  missingDroppable: boolean;
  extraCreditCap: ExtraCreditCap | null;
  units: GradeUnits;
}

export function categoryRulesFor(setup: GradebookSetup, categoryOf: number[], possibleUnits: Units[], units: GradeUnits): CategoryRules {
  const itemsOf: number[][] = setup.categories.map(() => []);
  categoryOf.forEach((c, item) => c >= 0 && itemsOf[c]!.push(item));
  const capPercent = setup.extraCredit.categoryCapPercent;
  return {
    categories: setup.categories,
    itemsOf,
    possibleUnits,
    missingDroppable: setup.missing.droppable,
    extraCreditCap: setup.mode === 'weighted' && capPercent !== null ? extraCreditCap(capPercent) : null,
    units,
  };
}

function extraCreditCap(capPercent: number): ExtraCreditCap {
  const digits = decimalsOf(capPercent);
  return { num: toUnits(capPercent, digits), den: exactInt(100n * 10n ** BigInt(digits)), digits: 2 + digits };
}

/** One student's category totals by category index (grade units); reused from student to student. */
export interface CategoryTotals {
  /** Kept items only. */
  earned: Units[];
  possible: Units[];
  /** Before any cap (points mode caps the course's sum instead). */
  extraCredit: Units[];
  /** The category percentage as percentNum / percentDen; percentDen 0 when the category is empty. */
  percentNum: ExactInt[];
  percentDen: ExactInt[];
}

export function emptyCategoryTotals(nCategories: number): CategoryTotals {
  const zeros = () => new Array<ExactInt>(nCategories).fill(0);
  return { earned: zeros(), possible: zeros(), extraCredit: zeros(), percentNum: zeros(), percentDen: zeros() };
}

/** Grade category `c` from the student's item grades: marks drops in `items`, writes `totals`, returns the result. */
export function gradeCategory(rules: CategoryRules, c: number, items: ItemGrades, totals: CategoryTotals): CategoryResult {
  const category = rules.categories[c]!;
  const regular: number[] = [];
  let extraCredit: Units = 0;
  for (const item of rules.itemsOf[c]!) {
    if (!items.counted[item]) continue;
    // An item worth 0 points is extra credit: it adds to earned and never to possible.
    if (rules.possibleUnits[item] === 0) extraCredit = add(extraCredit, items.effective[item]!);
    else regular.push(item);
  }
  markDrops(rules, category, regular, extraCredit, items);
  let earned: Units = 0;
  let possible: Units = 0;
  for (const item of regular) {
    if (items.dropped[item]) continue;
    earned = add(earned, items.effective[item]!);
    possible = add(possible, rules.possibleUnits[item]!);
  }
  const capped = cappedExtraCredit(rules.extraCreditCap, extraCredit, possible);
  const empty = possible === 0;
  // (earned + X') / possible with X' = capped.num / capped.den, over a common denominator.
  totals.percentNum[c] = empty ? 0 : mul(100, add(mul(earned, capped.den), capped.num));
  totals.percentDen[c] = empty ? 0 : mul(possible, capped.den);
  totals.earned[c] = earned;
  totals.possible[c] = possible;
  totals.extraCredit[c] = extraCredit;
  return {
    categoryId: category.id,
    name: category.name,
    earned: unitsToPoints(rules.units, earned),
    possible: unitsToPoints(rules.units, possible),
    extraCredit: capped.num === 0 ? 0 : unitsToPoints(rules.units, capped.num, capped.digits),
    percent: empty ? null : roundFractionToTenths(totals.percentNum[c]!, totals.percentDen[c]!),
    empty,
  };
}

/**
 * How many lowest and highest drops a category makes of its `regular` counted items: as many
 * as the setup asks, while keepAtLeast items stay and only droppable items go (a missing zero
 * is droppable only when missing.droppable).
 */
export function dropCounts(drop: Category['drop'], regular: number, droppable: number): { lowest: number; highest: number } {
  const lowest = Math.max(0, Math.min(drop.lowest, regular - drop.keepAtLeast, droppable));
  const highest = Math.max(0, Math.min(drop.highest, regular - drop.keepAtLeast - lowest, droppable - lowest));
  return { lowest, highest };
}

function markDrops(rules: CategoryRules, category: Category, regular: number[], extraCredit: Units, items: ItemGrades): void {
  const isDroppable = (item: number) => rules.missingDroppable || !items.missingZero[item];
  let droppable = 0;
  for (const item of regular) if (isDroppable(item)) droppable++;
  const { lowest, highest } = dropCounts(category.drop, regular.length, droppable);
  if (lowest === 0 && highest === 0) return;
  const choice = chooseDrops({
    earned: regular.map((item) => items.effective[item]!),
    possible: regular.map((item) => rules.possibleUnits[item]!),
    droppable: regular.map(isDroppable),
    extraCredit,
    cap: rules.extraCreditCap,
    lowest,
    highest,
  });
  for (const i of choice.lowest) items.dropped[regular[i]!] = DROPPED_LOWEST;
  for (const i of choice.highest) items.dropped[regular[i]!] = DROPPED_HIGHEST;
}

/** Extra credit after the category cap, as num / den (den = 10^digits; 1 without a cap). */
function cappedExtraCredit(cap: ExtraCreditCap | null, extraCredit: Units, possible: Units): { num: ExactInt; den: ExactInt; digits: number } {
  if (cap === null || !(extraCredit > 0)) return { num: extraCredit, den: 1, digits: 0 };
  return { num: min(mul(extraCredit, cap.den), mul(possible, cap.num)), den: cap.den, digits: cap.digits };
}
