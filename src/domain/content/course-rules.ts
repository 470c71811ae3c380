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

/**
 * An assignment's `categoryId` is null or a category of its course's gradebook setup.
 * Asked by assignment create and update and by content writes (push, pull).
 */
export function assignmentCategoryProblems(categoryId: string | null | undefined, categories: ReadonlyArray<{ id: string }>, path = 'categoryId'): Problem[] {
  if (categoryId === null || categoryId === undefined) return [];
  return categories.some((c) => c.id === categoryId)
    ? []
    : [{ path, message: `${JSON.stringify(categoryId)} is not a category of the course's gradebook setup` }];
}
