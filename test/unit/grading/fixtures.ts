import { computeCourseGrades, defaultGradebookSetup, type GradebookSetup, type GradeItem, type GradeSubmission } from '../../../src/domain/grading/index.js';

export const NOW = '2026-11-22T12:00:00.000Z';

export function setupWith(over: Partial<GradebookSetup> & { cats?: [string, number, Partial<GradebookSetup['categories'][number]>?][] } = {}): GradebookSetup {
  const base = defaultGradebookSetup('c', NOW, 'u');
  const { cats, ...rest } = over;
  const categories = (cats ?? [['q', 100]]).map(([id, weight, extra], position) => ({
    id,
    courseId: 'c',
    name: id.toUpperCase(),
    position,
    weight,
    drop: { lowest: 0, highest: 0, keepAtLeast: 1 },
    lateApplies: true,
    ...(extra ?? {}),
  }));
  return { ...base, mode: 'weighted', categories, ...rest };
}

let pos = 0;
export function item(id: string, points: number, categoryId: string | null = 'q', dueAt: string | null = '2026-10-01T00:00:00.000Z'): GradeItem {
  return { id, title: `Item ${id}`, categoryId, points, dueAt, moduleId: 'm', modulePosition: 0, position: pos++ };
}

export function sub(
  assignmentId: string,
  score: number | null,
  submittedAt = '2026-09-30T12:00:00.000Z',
  extra: Partial<GradeSubmission> = {},
): GradeSubmission {
  return { assignmentId, studentId: 's1', attempt: 1, submittedAt, score, releasedAt: '2026-10-05T00:00:00.000Z', ...extra };
}

/** Grades of the one student s1. */
export function gradeOf(setup: GradebookSetup, items: GradeItem[], submissions: GradeSubmission[], now = NOW, releasedOnly = false) {
  return computeCourseGrades({ setup, items, students: [{ id: 's1', name: 'Sam' }], submissions, now, releasedOnly, detail: true }).students[0]!;
}
