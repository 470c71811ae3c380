import type { GradebookSetup } from './types.js';

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

/** The setup every course starts with (gradebook-operations.md, "Setup"). */
export function defaultGradebookSetup(courseId: string, now: string, updatedBy: string): GradebookSetup {
  return {
    courseId,
    mode: 'points',
    categories: [],
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
