/**
 * computeCourseGrades: grading.md, rules edition 1. Pure: setup, items, students,
 * submissions and `now` in; per student item statuses, category results, course
 * percentage and letter out. All arithmetic is exact (see exact.ts); numbers are converted
 * to JS numbers once, at the end.
 */
import { chooseDrops } from './drops.js';
import { decimalsOf, type Fraction, roundHalfUp, toUnits, toUnitsBig, unitsToDecimalString } from './exact.js';
import { letterFor } from './letters.js';
import type { CategoryResult, CourseGrades, GradebookSetup, GradeItem, GradeStudent, GradeSubmission, ItemResult, ItemStatus, StudentGrades } from './types.js';

export interface GradeInput {
  setup: GradebookSetup;
  items: GradeItem[];
  students: GradeStudent[];
  /** Any iterable; each element is read once and not kept (a reused object is fine). */
  submissions: Iterable<GradeSubmission>;
  now: string;
  /** A student's own view: only grades with releasedAt count (others are pending). */
  releasedOnly?: boolean;
  /** Include per-item detail (`items`) for each student. */
  detail?: boolean;
}

/** The course's item order: (module position, module id, item position, id). */
export function courseOrder(a: GradeItem, b: GradeItem): number {
  return a.modulePosition - b.modulePosition || cmp(a.moduleId, b.moduleId) || a.position - b.position || cmp(a.id, b.id);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const HOUR = 3_600_000;
const DAY = 86_400_000;

export function computeCourseGrades(input: GradeInput): CourseGrades {
  const { setup } = input;
  const ordered = [...input.items].sort(courseOrder);
  const inputIndex = new Map(input.items.map((it, i) => [it.id, i]));
  const itemIndex = new Map(ordered.map((it, i) => [it.id, i]));
  const nItems = ordered.length;
  const catIndex = new Map(setup.categories.map((c, i) => [c.id, i]));
  const itemCat = ordered.map((it) => (it.categoryId !== null && catIndex.has(it.categoryId) ? catIndex.get(it.categoryId)! : -1));

  // --- submissions of record ----------------------------------------------------------
  const studentIndex = new Map(input.students.map((s, i) => [s.id, i]));
  const cells = input.students.length * nItems;
  const bestAttempt = new Int32Array(cells);
  const bestScore = new Float64Array(cells);
  const bestAt = new Float64Array(cells);
  const anySubmission = new Uint8Array(cells);
  let k = 0; // decimal places of the common unit
  for (const it of ordered) k = Math.max(k, decimalsOf(it.points));
  for (const sub of input.submissions) {
    const si = studentIndex.get(sub.studentId);
    const ii = itemIndex.get(sub.assignmentId);
    if (si === undefined || ii === undefined) continue;
    const c = si * nItems + ii;
    anySubmission[c] = 1;
    const graded = sub.score !== null && (!input.releasedOnly || sub.releasedAt !== null);
    if (graded && sub.attempt > bestAttempt[c]!) {
      bestAttempt[c] = sub.attempt;
      bestScore[c] = sub.score!;
      bestAt[c] = Date.parse(sub.submittedAt);
      k = Math.max(k, decimalsOf(sub.score!));
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
  const pow = 10 ** unitDigits;
  // An exact integer over a power of ten: one correctly rounded division gives the same
  // double as parsing the decimal text.
  const toNumber = (units: number | bigint) =>
    typeof units === 'number' && Number.isSafeInteger(units) && unitDigits <= 22 ? units / pow : Number(unitsToDecimalString(units, unitDigits));

  const nCats = setup.categories.length;
  const students: StudentGrades[] = [];
  const statuses: ItemStatus[] = new Array(nItems);
  const effM = new Float64Array(nItems);
  const counted = new Uint8Array(nItems);
  const missingZero = new Uint8Array(nItems);
  const lateInfo: ({ periods: number; deduction: number } | null)[] = new Array(nItems);

  for (let si = 0; si < input.students.length; si++) {
    const student = input.students[si]!;
    // per item
    for (let ii = 0; ii < nItems; ii++) {
      const c = si * nItems + ii;
      const P = pointsU[ii]!;
      counted[ii] = 0;
      missingZero[ii] = 0;
      lateInfo[ii] = null;
      effM[ii] = 0;
      if (bestAttempt[c]! > 0) {
        const scoreU = toUnits(bestScore[c]!, k);
        let eff = scoreU * F;
        const due = dueMs[ii]!;
        const cat = itemCat[ii]! >= 0 ? setup.categories[itemCat[ii]!]! : null;
        const lateMs = due === null ? 0 : bestAt[c]! - due;
        if (late.enabled && cat?.lateApplies && due !== null && lateMs > graceMs) {
          let n = Math.ceil(lateMs / periodMs);
          if (late.maxPeriods !== null && n > late.maxPeriods) {
            if (late.afterMax === 'missing') {
              // Past the cap: missing with effective score 0, whatever missing.treatAs says.
              statuses[ii] = 'missing';
              counted[ii] = 1;
              missingZero[ii] = 1;
              lateInfo[ii] = { periods: n, deduction: toNumber(eff) };
              continue;
            }
            n = late.maxPeriods;
          }
          const basisU = late.basis === 'possible' ? P : scoreU;
          const d = latePossible ? pctInt * n * basisU : 0;
          eff = Math.max(0, eff - d);
          lateInfo[ii] = { periods: n, deduction: toNumber(scoreU * F - eff) };
        }
        statuses[ii] = 'graded';
        effM[ii] = eff;
        counted[ii] = 1;
      } else if (anySubmission[c]) {
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
    const catResults: CategoryResult[] = [];
    const catFractions: (Fraction | null)[] = [];
    const dropped: ('lowest' | 'highest' | null)[] = new Array(nItems).fill(null);
    let sumE = 0;
    let sumQ = 0;
    let sumX = 0;
    for (let ci = 0; ci < nCats; ci++) {
      const cat = setup.categories[ci]!;
      const regular: number[] = [];
      let x = 0;
      for (let ii = 0; ii < nItems; ii++) {
        if (itemCat[ii] !== ci || !counted[ii]) continue;
        if (pointsU[ii] === 0) x += effM[ii]!;
        else regular.push(ii);
      }
      const s = regular.map((ii) => effM[ii]!);
      const p = regular.map((ii) => pointsU[ii]! * F);
      const droppable = regular.map((ii) => !(missingZero[ii] && !setup.missing.droppable));
      const N = regular.length;
      const nD = droppable.filter(Boolean).length;
      const K = cat.drop.keepAtLeast;
      const l = Math.max(0, Math.min(cat.drop.lowest, N - K, nD));
      const h = Math.max(0, Math.min(cat.drop.highest, N - K - l, nD - l));
      let keptE = 0;
      let keptQ = 0;
      const cap = catCap && { num: catCap.num, den: catCap.den };
      const choice = l > 0 || h > 0 ? chooseDrops({ s, p, droppable, x, cap, lowest: l, highest: h }) : { lowest: [], highest: [] };
      const gone = new Set<number>();
      for (const i of choice.lowest) {
        gone.add(i);
        dropped[regular[i]!] = 'lowest';
      }
      for (const i of choice.highest) {
        gone.add(i);
        dropped[regular[i]!] = 'highest';
      }
      for (let i = 0; i < N; i++) {
        if (gone.has(i)) continue;
        keptE += s[i]!;
        keptQ += p[i]!;
      }
      // Extra credit after the category cap (weighted mode): exact fraction xNum / xDen.
      let xNum = BigInt(x);
      let xDen = 1n;
      if (cap && x > 0) {
        const byCap = BigInt(keptQ) * BigInt(cap.num);
        const scaled = BigInt(x) * BigInt(cap.den);
        xNum = scaled < byCap ? scaled : byCap;
        xDen = BigInt(cap.den);
      }
      const empty = keptQ === 0;
      let fraction: Fraction | null = null;
      if (!empty) fraction = { num: 100n * (BigInt(keptE) * xDen + xNum), den: BigInt(keptQ) * xDen };
      catFractions.push(fraction);
      catResults.push({
        categoryId: cat.id,
        name: cat.name,
        earned: toNumber(keptE),
        possible: toNumber(keptQ),
        extraCredit: fractionToNumber({ num: xNum, den: xDen * BigInt(M) }),
        percent: fraction ? roundHalfUp(fraction).value : null,
        empty,
      });
      sumE += keptE;
      sumQ += keptQ;
      sumX += x;
    }

    // course
    let course: Fraction | null = null;
    if (weighted) {
      let accN = 0n;
      let accD = 1n;
      let W = 0n;
      for (let ci = 0; ci < nCats; ci++) {
        const f = catFractions[ci];
        if (!f) continue;
        const w = weightInt[ci]!;
        W += w;
        accN = accN * f.den + w * f.num * accD;
        accD *= f.den;
      }
      if (W > 0n) course = { num: accN, den: accD * (W < hundredW ? W : hundredW) };
    } else if (sumQ > 0) {
      const x = courseCapM !== null && sumX > courseCapM ? courseCapM : sumX;
      course = { num: 100n * (BigInt(sumE) + BigInt(x)), den: BigInt(sumQ) };
    }
    const rounded = course ? roundHalfUp(course).value : null;

    const cellsOut: (number | null)[] = new Array(nItems);
    const detail: ItemResult[] | undefined = input.detail ? [] : undefined;
    for (let ii = 0; ii < nItems; ii++) {
      const value = statuses[ii] === 'graded' ? toNumber(effM[ii]!) : missingZero[ii] ? 0 : null;
      cellsOut[inputIndex.get(ordered[ii]!.id)!] = value;
      if (detail) {
        const c = si * nItems + ii;
        detail.push({
          itemId: ordered[ii]!.id,
          status: statuses[ii]!,
          score: bestAttempt[c]! > 0 ? bestScore[c]! : null,
          effectiveScore: value,
          late: lateInfo[ii]!,
          dropped: dropped[ii]!,
          counted: counted[ii] === 1 && itemCat[ii]! >= 0 && dropped[ii] === null,
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
  const byName = (a: StudentGrades, b: StudentGrades) => cmp(a.studentName, b.studentName) || cmp(a.studentId, b.studentId);
  return { students: students.sort(byName) };
}

/** categoryCapPercent c as num/den with X' = min(X, Q * num / den) = min(X, c/100 * Q). */
function capFraction(c: number): { num: number; den: number } {
  const d = decimalsOf(c);
  return { num: toUnits(c, d), den: 100 * 10 ** d };
}

/** A fraction whose denominator divides a power of ten, as an exact JS number. */
function fractionToNumber(f: Fraction): number {
  if (f.num === 0n) return 0;
  for (let d = 0; d <= 30; d++) {
    const scaled = f.num * 10n ** BigInt(d);
    if (scaled % f.den === 0n) return Number(unitsToDecimalString(scaled / f.den, d));
  }
  return Number(f.num) / Number(f.den);
}
