/** The orders grading.md fixes for items and categories, in one place. */
import { compareStrings } from '../compare.js';
import type { Category, GradeItem } from './types.js';

/**
 * Course order: module position, module id, item position, id. Drop ties, per-item detail
 * and the export's columns within a category follow it.
 */
export function compareItemsInCourseOrder(a: GradeItem, b: GradeItem): number {
  return a.modulePosition - b.modulePosition || compareStrings(a.moduleId, b.moduleId) || a.position - b.position || compareStrings(a.id, b.id);
}

/** Category order: position, then id (setup checks and the export's category columns). */
export function compareCategoriesInOrder(a: Category, b: Category): number {
  return a.position - b.position || compareStrings(a.id, b.id);
}
