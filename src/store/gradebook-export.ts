/**
 * The staff view's grading input for one course, and the gradebook CSV built from it: the
 * one place both the export and the grades import (which compares with what the export
 * prints) read a course's gradebook.
 */
import { computeCourseGrades, type ExportLayout, renderGradebookCsv } from '../domain/grading/index.js';
import type { Store } from './db.js';
import { loadSubmissionRecords } from './grade-cells.js';
import { listFinalGrades, loadSetup, publishedItems } from './gradebook.js';
import { listStudents } from './users.js';

/** Everything the grading engine needs for one course at one instant (the staff view: every grade counts). */
export function courseGradingInput(store: Store, courseId: string) {
  const setup = loadSetup(store, courseId);
  const items = publishedItems(store, courseId);
  const students = listStudents(store, courseId);
  const records = loadSubmissionRecords(
    store,
    courseId,
    items.map((it) => it.id),
    students.map((s) => s.id),
  );
  return { setup, items, students, records };
}

/** Spreadsheet programs that guess the encoding (Excel) read UTF-8 right only after this mark. */
const BOM = '\uFEFF';

/** The gradebook as CSV text in the given layout, with a byte-order mark when asked. */
export function gradebookCsv(store: Store, courseId: string, now: string, options: { layout: ExportLayout; bom: boolean }): string {
  const input = courseGradingInput(store, courseId);
  const grades = computeCourseGrades({ ...input, now });
  const overrides = listFinalGrades(store, courseId).map((f) => ({ studentId: f.studentId, percent: f.percent, letter: f.letter }));
  const csv = renderGradebookCsv({ setup: input.setup, items: input.items, students: input.students, grades, overrides, layout: options.layout });
  return options.bom ? BOM + csv : csv;
}
