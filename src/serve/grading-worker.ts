/**
 * The body of a grading worker thread (piscina): one engine run per task. Its input and
 * output are plain data (typed arrays for the submissions of record), so a task costs one
 * structured clone each way.
 */
import { type CourseGrades, computeCourseGrades, type GradeInput } from '../domain/grading/index.js';

export default function grade(input: GradeInput): CourseGrades {
  return computeCourseGrades(input);
}
