/**
 * computeCourseGrades: grading.md, rules edition 1. Pure: setup, items, students,
 * submissions and `now` in; per student item statuses, category results, course
 * percentage and letter out.
 *
 * Three phases per student, each in its own module: per item (item-phase.ts: status and
 * effective score after the late and missing rules), per category (category-phase.ts:
 * drops, totals, capped extra credit, percentage), course (course-phase.ts: weighted or
 * points percentage). All arithmetic is exact, on integers in the course's grade units
 * (grade-units.ts); numbers are converted to JS numbers once, for the results. Everything
 * a phase needs of the course is computed once (the *Rules), and the per-student buffers
 * are reused, so grading 10,000 students allocates little beyond the results.
 */
import { compareStrings } from '../compare.js';
import { categoryRulesFor, emptyCategoryTotals, gradeCategory } from './category-phase.js';
import { coursePercent, courseRulesFor } from './course-phase.js';
import { sub } from './exact.js';
import { gradeUnitsFor, toGradeUnits, unitsToPoints } from './grade-units.js';
import { DROPPED_HIGHEST, DROPPED_LOWEST, emptyItemGrades, gradeItems, type ItemGrades, type ItemRules, itemRulesFor } from './item-phase.js';
import { letterFor } from './letters.js';
import { compareItemsInCourseOrder } from './order.js';
import { recordsFromSubmissions, type SubmissionRecords } from './records.js';
import type { CourseGrades, GradebookSetup, GradeItem, GradeStudent, GradeSubmission, ItemResult, StudentGrades } from './types.js';

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

export function computeCourseGrades(input: GradeInput): CourseGrades {
  const { setup } = input;
  const records =
    input.records ??
    recordsFromSubmissions(
      input.items.map((it) => it.id),
      input.students.map((s) => s.id),
      input.submissions ?? [],
      input.releasedOnly,
    );
  if (records.nItems !== input.items.length || records.any.length !== input.students.length * input.items.length) {
    throw new Error('records do not match the items and students given');
  }
  // Items in course order; records keep the caller's order, hence recordColumn.
  const ordered = [...input.items].sort(compareItemsInCourseOrder);
  const inputIndex = new Map(input.items.map((it, i) => [it.id, i]));
  const recordColumn = ordered.map((it) => inputIndex.get(it.id)!);
  const categoryIndex = new Map(setup.categories.map((c, i) => [c.id, i]));
  const categoryOf = ordered.map((it) => (it.categoryId === null ? -1 : (categoryIndex.get(it.categoryId) ?? -1)));

  const units = gradeUnitsFor(setup, ordered, records);
  const itemRules = itemRulesFor(setup, ordered, recordColumn, categoryOf, units, input.now);
  const categoryRules = categoryRulesFor(setup, categoryOf, itemRules.possibleUnits, units);
  const courseRules = courseRulesFor(setup, units);

  const items = emptyItemGrades(ordered.length);
  const totals = emptyCategoryTotals(setup.categories.length);
  const students: StudentGrades[] = [];
  for (const si of studentsByName(input.students)) {
    const student = input.students[si]!;
    const rowStart = si * records.nItems;
    gradeItems(itemRules, records, rowStart, items);
    const categories = setup.categories.map((_, c) => gradeCategory(categoryRules, c, items, totals));
    const percent = coursePercent(courseRules, totals);
    students.push({
      studentId: student.id,
      studentName: student.name,
      categories,
      percent,
      letter: letterFor(setup.scheme, percent),
      ...(input.detail === true ? { items: itemDetail(ordered, categoryOf, itemRules, records, rowStart, items) } : {}),
      cells: exportCells(itemRules, items),
    });
  }
  return { students };
}

/** Student indexes in the order of the results: by name, then id. */
function studentsByName(students: GradeStudent[]): number[] {
  return students.map((_, i) => i).sort((a, b) => compareStrings(students[a]!.name, students[b]!.name) || compareStrings(students[a]!.id, students[b]!.id));
}

/** The export's value of each item (caller's order); NaN where the export leaves the cell empty. */
function exportCells(rules: ItemRules, items: ItemGrades): Float64Array {
  const cells = new Float64Array(rules.recordColumn.length);
  for (let item = 0; item < cells.length; item++) cells[rules.recordColumn[item]!] = effectiveScore(rules, items, item) ?? NaN;
  return cells;
}

/** An item's score as it counts: the effective score when graded, 0 for a missing zero, else null. */
function effectiveScore(rules: ItemRules, items: ItemGrades, item: number): number | null {
  return items.status[item] === 'graded' ? unitsToPoints(rules.units, items.effective[item]!) : items.missingZero[item] ? 0 : null;
}

/** Per-item detail in course order (the grades views). */
function itemDetail(
  ordered: GradeItem[],
  categoryOf: number[],
  rules: ItemRules,
  records: SubmissionRecords,
  rowStart: number,
  items: ItemGrades,
): ItemResult[] {
  return ordered.map((it, item) => {
    const cell = rowStart + rules.recordColumn[item]!;
    const graded = records.attempt[cell]! > 0;
    const periods = items.latePeriods[item]!;
    const dropped = items.dropped[item];
    return {
      itemId: it.id,
      status: items.status[item]!,
      score: graded ? records.score[cell]! : null,
      effectiveScore: effectiveScore(rules, items, item),
      // The deduction as applied: the score less what is left of it (all of it past maxPeriods with afterMax 'missing').
      late: periods ? { periods, deduction: unitsToPoints(rules.units, sub(toGradeUnits(rules.units, records.score[cell]!), items.effective[item]!)) } : null,
      dropped: dropped === DROPPED_LOWEST ? 'lowest' : dropped === DROPPED_HIGHEST ? 'highest' : null,
      counted: items.counted[item] === 1 && categoryOf[item]! >= 0 && dropped === 0,
    };
  });
}
