import type { Problem } from '../../errors.js';

/**
 * A course names the standards rubric its readiness report uses; that rubric must be
 * installed (the built-in one, or one in the store or in the same file). Every path that
 * creates or changes a course asks this: POST and PATCH /courses, templates, course files,
 * datasets.
 */
export function courseRubricProblems(rubricId: string, installed: (id: string) => boolean, path = 'rubricId'): Problem[] {
  return installed(rubricId) ? [] : [{ path, message: `no rubric ${JSON.stringify(rubricId)} is installed (see coursebook rubrics list)` }];
}
