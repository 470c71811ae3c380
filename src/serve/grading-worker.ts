/**
 * The body of a grading worker thread (piscina): one engine run per task. Its input is
 * plain data (typed arrays for the submissions of record); a grades view comes back as its
 * JSON's UTF-8 bytes, moved to the main thread rather than copied, and sent from there as
 * they are.
 */
import { Piscina } from 'piscina';
import { type GradesViewJob, gradesViewBytes } from '../api/grader.js';
import { type CourseGrades, computeCourseGrades, type GradeInput } from '../domain/grading/index.js';

/** A grades view's bytes, marked to be moved: piscina hands the main thread the Uint8Array itself. */
type Moved = ReturnType<typeof Piscina.move>;

export default function grade(task: { kind: 'grades'; input: GradeInput } | { kind: 'view'; job: GradesViewJob }): CourseGrades | Moved {
  if (task.kind === 'grades') return computeCourseGrades(task.input);
  return Piscina.move(gradesViewBytes(task.job));
}
