/**
 * computeCourseGrades: grading.md, rules edition 1. Pure: setup, items, students,
 * submissions and `now` in; per student item statuses, category results, course
 * percentage and letter out. All arithmetic is exact (see exact.ts); numbers are converted
 * to JS numbers once, at the end.
 */
import { compareStrings } from '../compare.js';
import { roundFractionToTenths } from '../rounding.js';
import { chooseDrops } from './drops.js';
import { decimalsOf, toUnits, toUnitsBig, unitsToDecimalString, weightedCoursePercent } from './exact.js';
import { letterFor } from './letters.js';
import { compareItemsInCourseOrder } from './order.js';
import { recordsFromSubmissions, type SubmissionRecords } from './records.js';
import type { CategoryResult, CourseGrades, GradebookSetup, GradeItem, GradeStudent, GradeSubmission, ItemResult, ItemStatus, StudentGrades } from './types.js';

export interface GradeInput {
  setup: GradebookSetup;
  items: GradeItem[];
  students: GradeStudent[];
  /** Any iterable; each element is read once and not kept (a reused object is fine). */
  submissions?: Iterable<GradeSubmission>;
  /** Or the submissions of record already folded (students x items, in the order given here). */
  records?: SubmissionRecords;
  now: string;
  /** A student's own view: only grades with releasedAt count (others are pending). Applies to `submissions`. */
  releasedOnly?: boolean;
  /** Include per-item detail (`items`) for each student. */
  detail?: boolean;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

export function computeCourseGrades(input: GradeInput): CourseGrades {
  const { setup } = input;
  const ordered = [...input.items].sort(compareItemsInCourseOrder);
  const inputIndex = new Map(input.items.map((it, i) => [it.id, i]));
  const nItems = ordered.length;
  const catIndex = new Map(setup.categories.map((c, i) => [c.id, i]));
  const itemCat = ordered.map((it) => (it.categoryId !== null && catIndex.has(it.categoryId) ? catIndex.get(it.categoryId)! : -1));

  // --- submissions of record (cells indexed by input item order) ----------------------
  const records =
    input.records ?? recordsFromSubmissions(input.items.map((it) => it.id), input.students.map((s) => s.id), input.submissions ?? [], input.releasedOnly);
  if (records.nItems !== input.items.length || records.any.length !== input.students.length * input.items.length) {
    throw new Error('records do not match the items and students given');
  }
  const ordToIn = ordered.map((it) => inputIndex.get(it.id)!);
  let k = 0; // decimal places of the common unit
  for (const it of ordered) k = Math.max(k, decimalsOf(it.points));
  for (let c = 0; c < records.attempt.length; c++) {
    if (records.attempt[c]! > 0) {
      const sc = records.score[c]!;
      if (!Number.isInteger(sc)) k = Math.max(k, decimalsOf(sc));
    }
  }
  if (setup.mode === 'points' && setup.extraCredit.courseCapPoints !== null) k = Math.max(k, decimalsOf(setup.extraCredit.courseCapPoints));

  // --- the common unit: 10^k, times 100*10^kp when late deductions can be fractional -----
  const late = setup.late;
  const latePossible = late.enabled && late.percentPerPeriod > 0;
  const kp = latePossible ? decimalsOf(late.percentPerPeriod) : 0;
  const F = latePossible ? 100 * 10 ** kp : 1;
  const M = 10 ** k * F;
  const pctInt = latePossible ? toUnits(late.percentPerPeriod, kp) : 0;
  const pointsU = ordered.map((it) => toUnits(it.points, k));
  const dueMs = ordered.map((it) => (it.dueAt === null ? null : Date.parse(it.dueAt)));
  const nowMs = Date.parse(input.now);
  const graceMs = late.graceMinutes * 60_000;
  const periodMs = late.period === 'hour' ? HOUR : DAY;

  const weighted = setup.mode === 'weighted';
  const catCap = weighted && setup.extraCredit.categoryCapPercent !== null ? capFraction(setup.extraCredit.categoryCapPercent) : null;
  const letterOf = (rounded: number | null) => letterFor(setup.scheme, rounded);
  const wDec = Math.max(0, ...setup.categories.map((c) => decimalsOf(c.weight)));
  const weightInt = setup.categories.map((c) => toUnitsBig(c.weight, wDec));
  const hundredW = 100n * 10n ** BigInt(wDec);
  const courseCapM = setup.mode === 'points' && setup.extraCredit.courseCapPoints !== null ? toUnits(setup.extraCredit.courseCapPoints, k) * F : null;
  // M is 10^k, times 100 * 10^kp with late deductions: a power of ten, so units -> decimal is exact.
  const unitDigits = k + (latePossible ? 2 + kp : 0);
  const toNumber = (units: number) => decimalNumber(units, unitDigits);

  const nCats = setup.categories.length;
  // Ordered item indexes of each category, built once for every student.
  const catItems: number[][] = setup.categories.map(() => []);
  for (let ii = 0; ii < nItems; ii++) if (itemCat[ii]! >= 0) catItems[itemCat[ii]!]!.push(ii);
  const detailed = input.detail === true;
  const students: StudentGrades[] = [];
  const statuses: ItemStatus[] = new Array(nItems);
  const effM = new Float64Array(nItems);
  const counted = new Uint8Array(nItems);
  const missingZero = new Uint8Array(nItems);
  const latePeriods = new Int32Array(nItems); // 0: not late
  const dropped = new Int8Array(nItems); // 0 kept, 1 lowest, 2 highest
  // Each category's percentage as the exact fraction catNum / catDen (den 0: empty).
  const catNum: (number | bigint)[] = new Array(nCats);
  const catDen: (number | bigint)[] = new Array(nCats);

  for (let si = 0; si < input.students.length; si++) {
    const student = input.students[si]!;
    const base = si * records.nItems;
    // per item
    for (let ii = 0; ii < nItems; ii++) {
      const c = base + ordToIn[ii]!;
      const P = pointsU[ii]!;
      counted[ii] = 0;
      missingZero[ii] = 0;
      latePeriods[ii] = 0;
      dropped[ii] = 0;
      effM[ii] = 0;
      if (records.attempt[c]! > 0) {
        const scoreU = toUnits(records.score[c]!, k);
        let eff = scoreU * F;
        const due = dueMs[ii]!;
        const cat = itemCat[ii]! >= 0 ? setup.categories[itemCat[ii]!]! : null;
        const lateMs = due === null ? 0 : records.submittedMs[c]! - due;
        if (late.enabled && cat?.lateApplies && due !== null && lateMs > graceMs) {
          let n = Math.ceil(lateMs / periodMs);
          if (late.maxPeriods !== null && n > late.maxPeriods) {
            if (late.afterMax === 'missing') {
              // Past the cap: missing with effective score 0, whatever missing.treatAs says.
              statuses[ii] = 'missing';
              counted[ii] = 1;
              missingZero[ii] = 1;
              latePeriods[ii] = n;
              continue;
            }
            n = late.maxPeriods;
          }
          const basisU = late.basis === 'possible' ? P : scoreU;
          const d = latePossible ? pctInt * n * basisU : 0;
          latePeriods[ii] = n;
          eff = Math.max(0, eff - d);
        }
        statuses[ii] = 'graded';
        effM[ii] = eff;
        counted[ii] = 1;
      } else if (records.any[c]) {
        statuses[ii] = 'pending';
      } else if (P > 0 && dueMs[ii] !== null && nowMs > dueMs[ii]! + graceMs) {
        statuses[ii] = 'missing';
        if (setup.missing.treatAs === 'zero-after-due') {
          counted[ii] = 1;
          missingZero[ii] = 1;
        }
      } else {
        statuses[ii] = 'not-due';
      }
    }
    // per category
    const catResults: CategoryResult[] = new Array(nCats);
    let sumE = 0;
    let sumQ = 0;
    let sumX = 0;
    for (let ci = 0; ci < nCats; ci++) {
      const cat = setup.categories[ci]!;
      const regular: number[] = [];
      let x = 0;
      for (const ii of catItems[ci]!) {
        if (!counted[ii]) continue;
        if (pointsU[ii] === 0) x += effM[ii]!;
        else regular.push(ii);
      }
      const N = regular.length;
      let nD = 0;
      for (const ii of regular) if (!(missingZero[ii] && !setup.missing.droppable)) nD++;
      const K = cat.drop.keepAtLeast;
      const l = Math.max(0, Math.min(cat.drop.lowest, N - K, nD));
      const h = Math.max(0, Math.min(cat.drop.highest, N - K - l, nD - l));
      if (l > 0 || h > 0) {
        const s = regular.map((ii) => effM[ii]!);
        const p = regular.map((ii) => pointsU[ii]! * F);
        const droppable = regular.map((ii) => !(missingZero[ii] && !setup.missing.droppable));
        const choice = chooseDrops({ earned: s, possible: p, droppable, extraCredit: x, cap: catCap, lowest: l, highest: h });
        for (const i of choice.lowest) dropped[regular[i]!] = 1;
        for (const i of choice.highest) dropped[regular[i]!] = 2;
      }
      let keptE = 0;
      let keptQ = 0;
      for (const ii of regular) {
        if (dropped[ii]) continue;
        keptE += effM[ii]!;
        keptQ += pointsU[ii]! * F;
      }
      // Extra credit after the category cap (weighted mode): X' = min(X, Q * num / den),
      // kept as the exact fraction xNum / xDen (den a power of ten).
      let xNum = x;
      let xDen = 1;
      let xDigits = 0;
      if (catCap && x > 0) {
        xNum = Math.min(x * catCap.den, keptQ * catCap.num);
        xDen = catCap.den;
        xDigits = catCap.digits;
      }
      const empty = keptQ === 0;
      if (empty) {
        catNum[ci] = 0;
        catDen[ci] = 0;
      } else {
        const num = 100 * (keptE * xDen + xNum);
        const den = keptQ * xDen;
        if (Number.isSafeInteger(num) && Number.isSafeInteger(den)) {
          catNum[ci] = num;
          catDen[ci] = den;
        } else {
          const bx = catCap && x > 0 ? minBig(BigInt(x) * BigInt(catCap.den), BigInt(keptQ) * BigInt(catCap.num)) : BigInt(x);
          catNum[ci] = 100n * (BigInt(keptE) * BigInt(xDen) + bx);
          catDen[ci] = BigInt(keptQ) * BigInt(xDen);
          xNum = Number(bx);
        }
      }
      catResults[ci] = {
        categoryId: cat.id,
        name: cat.name,
        earned: toNumber(keptE),
        possible: toNumber(keptQ),
        extraCredit: xNum === 0 ? 0 : decimalNumber(xNum, unitDigits + xDigits),
        percent: empty ? null : roundFractionToTenths(catNum[ci]!, catDen[ci]!),
        empty,
      };
      sumE += keptE;
      sumQ += keptQ;
      sumX += x;
    }

    // course
    let rounded: number | null = null;
    if (weighted) rounded = weightedCoursePercent(catNum, catDen, weightInt, hundredW);
    else if (sumQ > 0) {
      const x = courseCapM !== null && sumX > courseCapM ? courseCapM : sumX;
      rounded = roundFractionToTenths(100 * (sumE + x), sumQ);
    }

    const cellsOut: (number | null)[] = new Array(nItems);
    const detail: ItemResult[] | undefined = detailed ? [] : undefined;
    for (let ii = 0; ii < nItems; ii++) {
      const value = statuses[ii] === 'graded' ? toNumber(effM[ii]!) : missingZero[ii] ? 0 : null;
      cellsOut[ordToIn[ii]!] = value;
      if (detail) {
        const c = base + ordToIn[ii]!;
        const graded = records.attempt[c]! > 0;
        detail.push({
          itemId: ordered[ii]!.id,
          status: statuses[ii]!,
          score: graded ? records.score[c]! : null,
          effectiveScore: value,
          late: latePeriods[ii] ? { periods: latePeriods[ii]!, deduction: toNumber(toUnits(records.score[c]!, k) * F - effM[ii]!) } : null,
          dropped: dropped[ii] === 1 ? 'lowest' : dropped[ii] === 2 ? 'highest' : null,
          counted: counted[ii] === 1 && itemCat[ii]! >= 0 && dropped[ii] === 0,
        });
      }
    }
    students.push({
      studentId: student.id,
      studentName: student.name,
      categories: catResults,
      percent: rounded,
      letter: letterOf(rounded),
      ...(detail ? { items: detail } : {}),
      cells: cellsOut,
    });
  }
  const byName = (a: StudentGrades, b: StudentGrades) => compareStrings(a.studentName, b.studentName) || compareStrings(a.studentId, b.studentId);
  return { students: students.sort(byName) };
}

/** categoryCapPercent c as num/den with X' = min(X, Q * num / den) = min(X, c/100 * Q); den = 10^digits. */
function capFraction(c: number): { num: number; den: number; digits: number } {
  const d = decimalsOf(c);
  return { num: toUnits(c, d), den: 100 * 10 ** d, digits: 2 + d };
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

/** units / 10^digits as a JS number: one correctly rounded division equals parsing the decimal. */
function decimalNumber(units: number | bigint, digits: number): number {
  if (typeof units === 'number' && Number.isSafeInteger(units) && digits <= 22) return units / 10 ** digits;
  return Number(unitsToDecimalString(units, digits));
}

