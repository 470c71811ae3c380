import { gradesViewBody, type ShownOverride } from '../domain/grading/grades-view.js';
import { type CourseGrades, computeCourseGrades, type GradeInput } from '../domain/grading/index.js';

/** A page of the staff grades view to compute: the engine's input and what the view adds. */
export interface GradesViewJob {
  grading: GradeInput;
  courseId: string;
  overrides: ShownOverride[];
}

/**
 * Runs the grading engine for a request. `serve` gives the app a pool of worker threads
 * (src/serve/grading-pool.ts) so a large computation never stalls other requests; the CLI
 * and tests compute in the calling thread, where nothing else waits.
 */
export interface Grader {
  grade(input: GradeInput): Promise<CourseGrades>;
  /**
   * The grades view of a page as JSON in UTF-8, built where it was computed: one buffer
   * crosses threads (moved, not copied), not the objects, and it is the answer's body as
   * sent, with no string kept beside it (a page of 1000 students x 200 items is 24 MB).
   */
  gradesView(job: GradesViewJob): Promise<Uint8Array>;
}

/** The grades view's JSON text: the one function both graders run. */
export function gradesViewJson(job: GradesViewJob): string {
  const grades = computeCourseGrades({ ...job.grading, detail: true });
  return JSON.stringify(gradesViewBody({ courseId: job.courseId, computedAt: job.grading.now, setup: job.grading.setup, grades, overrides: job.overrides }));
}

/** The same as UTF-8 bytes: what a grader answers. */
export function gradesViewBytes(job: GradesViewJob): Uint8Array {
  return new TextEncoder().encode(gradesViewJson(job));
}

export const inlineGrader: Grader = {
  grade: async (input) => computeCourseGrades(input),
  gradesView: async (job) => gradesViewBytes(job),
};
