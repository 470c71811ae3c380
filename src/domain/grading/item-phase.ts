/**
 * Phase 1, per item and student (grading.md, "Per item"): each item's status and the score
 * it counts with, after the late rules and the missing rules.
 */
import { type ExactInt, max, mul, sub } from './exact.js';
import { type GradeUnits, toGradeUnits, toValueUnits, type Units } from './grade-units.js';
import type { SubmissionRecords } from './records.js';
import type { GradebookSetup, GradeItem, ItemStatus, LatePolicy } from './types.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** What the per-item rules need of a course, computed once for all its students. Items in course order. */
export interface ItemRules {
  units: GradeUnits;
  /** The records column of each item (records keep the caller's item order). */
  recordColumn: number[];
  /** Points of each item in grade units. */
  possibleUnits: Units[];
  /** Points of each item in value units: the basis of a late deduction on possible points. */
  possibleValueUnits: ExactInt[];
  /** Due time in epoch milliseconds; NaN without a due date. */
  dueMs: Float64Array;
  /** 1 when late rules apply: late penalties on and the item's category has lateApplies. */
  lateApplies: Uint8Array;
  late: LatePolicy;
  graceMs: number;
  periodMs: number;
  missingCountsAsZero: boolean;
  nowMs: number;
}

/** `ordered`: the items in course order; `categoryOf`: each one's category index, -1 for none. */
export function itemRulesFor(
  setup: GradebookSetup,
  ordered: GradeItem[],
  recordColumn: number[],
  categoryOf: number[],
  units: GradeUnits,
  now: string,
): ItemRules {
  const { late } = setup;
  return {
    units,
    recordColumn,
    possibleUnits: ordered.map((item) => toGradeUnits(units, item.points)),
    possibleValueUnits: ordered.map((item) => toValueUnits(units, item.points)),
    dueMs: Float64Array.from(ordered, (item) => (item.dueAt === null ? NaN : Date.parse(item.dueAt))),
    lateApplies: Uint8Array.from(categoryOf, (c) => (late.enabled && c >= 0 && setup.categories[c]!.lateApplies ? 1 : 0)),
    late,
    graceMs: late.graceMinutes * 60_000,
    periodMs: late.period === 'hour' ? HOUR_MS : DAY_MS,
    missingCountsAsZero: setup.missing.treatAs === 'zero-after-due',
    nowMs: Date.parse(now),
  };
}

/** One student's per-item results, in course order; reused from student to student (no allocation per cell). */
export interface ItemGrades {
  status: ItemStatus[];
  /** Effective score in grade units (after any late deduction); 0 when not graded. */
  effective: Units[];
  /** 1: counts toward its category (graded, or missing and counted as zero). */
  counted: Uint8Array;
  /** 1: missing and counted as zero. */
  missingZero: Uint8Array;
  /** Late periods (0: not late); past maxPeriods with afterMax 'hold-at-max', the cap. Doubles: a far-future submission is billions of hours late. */
  latePeriods: Float64Array;
  /** Written by the category phase: 0 kept, 1 dropped as a lowest, 2 as a highest. */
  dropped: Int8Array;
}

export const DROPPED_LOWEST = 1;
export const DROPPED_HIGHEST = 2;

export function emptyItemGrades(nItems: number): ItemGrades {
  return {
    status: new Array<ItemStatus>(nItems).fill('not-due'),
    effective: new Array<Units>(nItems).fill(0),
    counted: new Uint8Array(nItems),
    missingZero: new Uint8Array(nItems),
    latePeriods: new Float64Array(nItems),
    dropped: new Int8Array(nItems),
  };
}

/** Grade every item of the student whose records row starts at `rowStart`, into `out`. */
export function gradeItems(rules: ItemRules, records: SubmissionRecords, rowStart: number, out: ItemGrades): void {
  out.counted.fill(0);
  out.missingZero.fill(0);
  out.latePeriods.fill(0);
  out.dropped.fill(0);
  for (let item = 0; item < rules.recordColumn.length; item++) {
    const cell = rowStart + rules.recordColumn[item]!;
    out.effective[item] = 0;
    if (records.attempt[cell]! > 0) gradeScored(rules, records, cell, item, out);
    else if (records.any[cell]) out.status[item] = 'pending';
    else if (rules.possibleValueUnits[item]! > 0 && rules.nowMs > rules.dueMs[item]! + rules.graceMs) {
      // No submission past due and grace (NaN, no due date, never is); extra credit is never missing.
      out.status[item] = 'missing';
      if (rules.missingCountsAsZero) countAsMissingZero(item, out);
    } else out.status[item] = 'not-due';
  }
}

/** A scored submission of record: its score after the late rules. */
function gradeScored(rules: ItemRules, records: SubmissionRecords, cell: number, item: number, out: ItemGrades): void {
  const scoreValueUnits = toValueUnits(rules.units, records.score[cell]!);
  let effective = mul(scoreValueUnits, rules.units.lateFactor);
  const periods = rules.lateApplies[item] ? latePeriods(rules, records.submittedMs[cell]! - rules.dueMs[item]!) : 0;
  if (periods > 0) {
    const { maxPeriods, afterMax } = rules.late;
    const pastMax = maxPeriods !== null && periods > maxPeriods;
    if (pastMax && afterMax === 'missing') {
      // Past the cap: missing with effective score 0, whatever missing.treatAs says.
      out.status[item] = 'missing';
      out.latePeriods[item] = periods;
      countAsMissingZero(item, out);
      return;
    }
    const charged = pastMax ? maxPeriods : periods;
    out.latePeriods[item] = charged;
    const basis = rules.late.basis === 'possible' ? rules.possibleValueUnits[item]! : scoreValueUnits;
    effective = max(0, sub(effective, lateDeduction(rules.units, charged, basis)));
  }
  out.status[item] = 'graded';
  out.effective[item] = effective;
  out.counted[item] = 1;
}

function countAsMissingZero(item: number, out: ItemGrades): void {
  out.counted[item] = 1;
  out.missingZero[item] = 1;
}

/** Periods started after the due date, once past the grace; 0 when on time or without a due date (NaN). */
function latePeriods(rules: ItemRules, lateMs: number): number {
  return lateMs > rules.graceMs ? Math.ceil(lateMs / rules.periodMs) : 0;
}

/** percentPerPeriod% x periods of the basis (value units), in grade units: an exact integer by the unit's choice. */
function lateDeduction(units: GradeUnits, periods: number, basisValueUnits: ExactInt): Units {
  return mul(mul(units.latePercent, periods), basisValueUnits);
}
