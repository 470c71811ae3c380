/** The gradebook tables: setups, final-grade overrides and their history. */
import type { FinalGradeHistoryValue, FinalGradeValue } from '../schemas/final-grades.js';
import type { GradebookSetupValue } from '../schemas/gradebook.js';
import { nnum, nstr, num, requiredJson, str, table } from './table.js';

export const GRADEBOOK_SETUPS = table<GradebookSetupValue>({
  name: 'gradebook_setups',
  key: ['course_id'],
  columns: ['course_id', 'setup', 'version', 'letters'],
  // letters: the scheme's letters alone, what a final-grade write checks its letter against.
  toRow: (s) => ({ course_id: s.courseId, setup: JSON.stringify(s), version: s.version, letters: JSON.stringify(s.scheme.bands.map((b) => b.letter)) }),
  fromRow: (r) => requiredJson<GradebookSetupValue>(r.setup),
});

export const FINAL_GRADES = table<FinalGradeValue>({
  name: 'final_grades',
  key: ['course_id', 'student_id'],
  columns: ['course_id', 'student_id', 'letter', 'percent', 'reason', 'version', 'updated_by', 'updated_at'],
  toRow: (f) => ({
    course_id: f.courseId,
    student_id: f.studentId,
    letter: f.letter,
    percent: f.percent,
    reason: f.reason,
    version: f.version,
    updated_by: f.updatedBy,
    updated_at: f.updatedAt,
  }),
  fromRow: (r) => ({
    courseId: str(r.course_id),
    studentId: str(r.student_id),
    letter: nstr(r.letter),
    percent: nnum(r.percent),
    reason: str(r.reason),
    version: num(r.version),
    updatedBy: str(r.updated_by),
    updatedAt: str(r.updated_at),
  }),
});

export const FINAL_GRADE_HISTORY = table<FinalGradeHistoryValue>({
  name: 'final_grade_history',
  // Append-only: `seq` (not written) orders entries; nothing is ever replaced.
  key: ['seq'],
  columns: ['course_id', 'student_id', 'version', 'old_letter', 'old_percent', 'new_letter', 'new_percent', 'reason', 'by', 'at'],
  toRow: (h) => ({
    course_id: h.courseId,
    student_id: h.studentId,
    version: h.version,
    old_letter: h.oldLetter,
    old_percent: h.oldPercent,
    new_letter: h.newLetter,
    new_percent: h.newPercent,
    reason: h.reason,
    by: h.by,
    at: h.at,
  }),
  fromRow: (r) => ({
    courseId: str(r.course_id),
    studentId: str(r.student_id),
    version: num(r.version),
    oldLetter: nstr(r.old_letter),
    oldPercent: nnum(r.old_percent),
    newLetter: nstr(r.new_letter),
    newPercent: nnum(r.new_percent),
    reason: str(r.reason),
    by: str(r.by),
    at: str(r.at),
  }),
});
