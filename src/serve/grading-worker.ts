/**
 * The body of a grading worker thread (piscina): one engine run per task. Its input is
 * plain data (typed arrays for the submissions of record); a grades view comes back as one
 * JSON string, cheaper to hand across threads than its objects.
 */
import { type GradesViewJob, gradesViewJson } from '../api/grader.js';
import { type CourseGrades, computeCourseGrades, type GradeInput } from '../domain/grading/index.js';

export default function grade(task: { kind: 'grades'; input: GradeInput } | { kind: 'view'; job: GradesViewJob }): CourseGrades | string {
  return task.kind === 'grades' ? computeCourseGrades(task.input) : gradesViewJson(task.job);
}
