/**
 * Rules about a setup's categories that several entry paths share: which categories an
 * item may name, and how the CLI's category commands place and name a category.
 */
import type { Problem } from '../../errors.js';
import { compareStrings } from '../compare.js';
import { slugId } from '../slug.js';
import type { Category } from './types.js';

/** An item's `categoryId` must be null or a category of the setup (assignment create and update, bulk moves). */
export function categoryProblems(categories: readonly Pick<Category, 'id'>[], categoryId: string | null | undefined, path = 'categoryId'): Problem[] {
  if (categoryId === null || categoryId === undefined) return [];
  return categories.some((c) => c.id === categoryId)
    ? []
    : [{ path, message: `${JSON.stringify(categoryId)} is not a category of the course's gradebook setup (${categoryList(categories)})` }];
}

const categoryList = (categories: readonly Pick<Category, 'id'>[]) =>
  categories.length === 0 ? 'it has none' : `its categories: ${categories.map((c) => c.id).join(', ')}`;

/** Categories in the order the gradebook shows them: (position, id). */
export function orderedCategories<C extends Pick<Category, 'id' | 'position'>>(categories: readonly C[]): C[] {
  return [...categories].sort((a, b) => a.position - b.position || compareStrings(a.id, b.id));
}

/** A category id made from its name: `Quizzes & Tests` -> `quizzes-tests`; `category` when nothing is left. */
export const categoryIdFromName = (name: string): string => slugId(name, 'category');

/**
 * The categories with `id` moved to index `position` of the (position, id) order, every
 * position renumbered 0, 1, 2, ... so the order is exactly what the instructor asked for.
 * A position past the end puts it last.
 */
export function placeCategory<C extends Pick<Category, 'id' | 'position'>>(categories: readonly C[], id: string, position: number): C[] {
  const ordered = orderedCategories(categories);
  const moving = ordered.find((c) => c.id === id);
  if (!moving) return [...categories];
  const rest = ordered.filter((c) => c.id !== id);
  rest.splice(Math.min(position, rest.length), 0, moving);
  return rest.map((c, i) => ({ ...c, position: i }));
}

/** The position after every existing category (0 for the first). */
export function nextCategoryPosition(categories: readonly Pick<Category, 'position'>[]): number {
  return categories.reduce((max, c) => Math.max(max, c.position + 1), 0);
}
