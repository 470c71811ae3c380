import { compareStrings } from '../compare.js';
import type { Category, GradebookSetup } from './types.js';

const DEFAULT_BANDS: [string, number][] = [
  ['A', 93],
  ['A-', 90],
  ['B+', 87],
  ['B', 83],
  ['B-', 80],
  ['C+', 77],
  ['C', 73],
  ['C-', 70],
  ['D+', 67],
  ['D', 63],
  ['D-', 60],
  ['F', 0],
];

/**
 * The category every new course starts with, so an assignment created the simplest way
 * counts somewhere (a course with no categories exports no item columns at all).
 */
export function defaultCategory(courseId: string): Category {
  return { id: 'assignments', courseId, name: 'Assignments', position: 0, weight: 100, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true };
}

/**
 * The category an assignment created without `categoryId` goes into: the setup's first by
 * (position, id), or none when the setup has no categories. Every creation path (the
 * assignment route, course files) asks this one function.
 */
export function firstCategoryId(categories: readonly Pick<Category, 'id' | 'position'>[]): string | null {
  let first: Pick<Category, 'id' | 'position'> | null = null;
  for (const c of categories) {
    if (first === null || c.position < first.position || (c.position === first.position && compareStrings(c.id, first.id) < 0)) first = c;
  }
  return first?.id ?? null;
}

/** The setup every course starts with (gradebook-operations.md, "Setup"; docs/decisions.md for the default category). */
export function defaultGradebookSetup(courseId: string, now: string, updatedBy: string): GradebookSetup {
  return {
    courseId,
    mode: 'points',
    categories: [defaultCategory(courseId)],
    late: { enabled: false, percentPerPeriod: 0, period: 'day', basis: 'possible', maxPeriods: null, afterMax: 'hold-at-max', graceMinutes: 0 },
    missing: { treatAs: 'exclude-until-graded', droppable: false },
    extraCredit: { categoryCapPercent: null, courseCapPoints: null },
    scheme: {
      id: 'default',
      name: 'Default letters',
      bands: DEFAULT_BANDS.map(([letter, min]) => ({ letter, min })),
      rounding: { decimals: 1, mode: 'half-up' },
      letterFrom: 'rounded',
    },
    emptyCategory: 'share-weight',
    studentNotes: [],
    dismissedChecks: [],
    source: { kind: 'manual', designSessionId: null },
    version: 1,
    rulesVersion: 1,
    updatedBy,
    updatedAt: now,
  };
}
