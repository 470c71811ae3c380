/**
 * Planning a grades import (issue #13): which cells change, checked whole first. A cell
 * is a change only where it differs from what the export prints for it now (so an export
 * imported unedited changes nothing, late deductions included); a blank cell is left
 * alone. Pure: the store gathers what it needs (assignments, students, the printed
 * values) and writes the changes.
 */
import type { Problem } from '../../errors.js';
import { MAX_POINTS } from '../../schemas/decimal.js';
import { cellPlace } from './import-csv.js';

export interface ImportBody {
  items: { itemId: string; column?: number | undefined }[];
  rows: { studentId: string; row?: number | undefined; scores: (number | null)[] }[];
}

export interface ImportFacts {
  courseId: string;
  /**
   * The assignment behind an item id, wherever it is; `in-draft-module`: published, but in a
   * module that is not, so not in the gradebook.
   */
  assignment(id: string): { courseId: string; status: string } | null;
  /** `student`: enrolled as a student of the course; `other`: a user who is not; `none`: no such user. */
  person(id: string): 'student' | 'other' | 'none';
  /** What the export prints for this student and item now (null: an empty cell). */
  printed(studentId: string, itemId: string): number | null;
}

export interface PlannedCell {
  studentId: string;
  itemId: string;
  row: number | null;
  column: number | null;
  /** What the export printed. */
  from: number | null;
  /** The score as entered: stored as is, before any late deduction. */
  to: number;
}

export interface ImportPlan {
  problems: Problem[];
  changes: PlannedCell[];
  unchanged: number;
  blank: number;
}

export function planGradesImport(body: ImportBody, facts: ImportFacts): ImportPlan {
  const problems: Problem[] = [];
  const itemOk: boolean[] = [];
  const seenItems = new Map<string, number | undefined>();
  body.items.forEach((it, j) => {
    const where = it.column !== undefined ? `${cellPlace(undefined, it.column)} (${it.itemId})` : `item ${JSON.stringify(it.itemId)}`;
    const a = facts.assignment(it.itemId);
    let message: string | null = null;
    if (seenItems.has(it.itemId)) {
      const other = seenItems.get(it.itemId);
      message = `${where}: the same item as ${other !== undefined ? cellPlace(undefined, other) : 'another column'}`;
    } else if (a === null) message = `${where}: no assignment ${JSON.stringify(it.itemId)}`;
    else if (a.courseId !== facts.courseId) message = `${where}: assignment ${JSON.stringify(it.itemId)} is not in course ${JSON.stringify(facts.courseId)}`;
    else if (a.status === 'in-draft-module')
      message = `${where}: assignment ${JSON.stringify(it.itemId)} is in a draft module; only assignments students can see are in the gradebook (publish the module first)`;
    else if (a.status !== 'published')
      message = `${where}: assignment ${JSON.stringify(it.itemId)} is a draft; only published assignments are in the gradebook`;
    if (!seenItems.has(it.itemId)) seenItems.set(it.itemId, it.column);
    itemOk.push(message === null);
    if (message !== null) problems.push({ path: `items[${j}].itemId`, message });
  });

  const changes: PlannedCell[] = [];
  let unchanged = 0;
  let blank = 0;
  const seenStudents = new Map<string, number | undefined>();
  body.rows.forEach((r, i) => {
    const where = r.row !== undefined ? `row ${r.row}` : `rows[${i}]`;
    let message: string | null = null;
    if (seenStudents.has(r.studentId)) {
      const other = seenStudents.get(r.studentId);
      message = `${where}: student ${JSON.stringify(r.studentId)} is also in ${other !== undefined ? `row ${other}` : 'another row'}`;
    } else {
      const person = facts.person(r.studentId);
      if (person === 'none') message = `${where}: no user ${JSON.stringify(r.studentId)}`;
      else if (person === 'other') message = `${where}: ${JSON.stringify(r.studentId)} is not a student of course ${JSON.stringify(facts.courseId)}`;
    }
    if (!seenStudents.has(r.studentId)) seenStudents.set(r.studentId, r.row);
    if (message !== null) {
      problems.push({ path: `rows[${i}].studentId`, message });
      return;
    }
    if (r.scores.length !== body.items.length) {
      problems.push({ path: `rows[${i}].scores`, message: `${where}: ${r.scores.length} scores for ${body.items.length} item columns` });
      return;
    }
    r.scores.forEach((score, j) => {
      if (score === null) {
        blank++;
        return;
      }
      const place = cellPlace(r.row, body.items[j]!.column) || `rows[${i}].scores[${j}]`;
      if (score < 0) {
        problems.push({ path: `rows[${i}].scores[${j}]`, message: `${place}: ${score} is negative; a score is 0 or more` });
        return;
      }
      if (score > MAX_POINTS) {
        problems.push({ path: `rows[${i}].scores[${j}]`, message: `${place}: ${score} is over the largest score, ${MAX_POINTS}` });
        return;
      }
      if (!itemOk[j]) return;
      const itemId = body.items[j]!.itemId;
      const from = facts.printed(r.studentId, itemId);
      if (from !== null && from === score) {
        unchanged++;
        return;
      }
      changes.push({ studentId: r.studentId, itemId, row: r.row ?? null, column: body.items[j]!.column ?? null, from, to: score });
    });
  });
  return { problems, changes, unchanged, blank };
}
