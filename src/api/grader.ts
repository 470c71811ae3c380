import { type CourseGrades, computeCourseGrades, type GradeInput } from '../domain/grading/index.js';

/**
 * Runs the grading engine for a request. `serve` gives the app a pool of worker threads
 * (src/serve/grading-pool.ts) so a large computation never stalls other requests; the CLI
 * and tests compute in the calling thread, where nothing else waits.
 */
export interface Grader {
  grade(input: GradeInput): Promise<CourseGrades>;
}

export const inlineGrader: Grader = {
  grade: async (input) => computeCourseGrades(input),
};
