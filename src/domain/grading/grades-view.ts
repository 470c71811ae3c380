import { finalGrade } from './final-grade.js';
import type { CourseGrades, FinalOverride, GradebookSetup } from './types.js';

/** A student's override as the staff grades view shows it (with its version), or none. */
export type ShownOverride = FinalOverride & { version: number };

/**
 * The staff grades view of some students: per student, the computed grades (without the
 * export's cells), the override and the final grade. Pure, so a worker thread can build it
 * and hand back one JSON text instead of thousands of objects.
 */
export function gradesViewBody(input: {
  courseId: string;
  computedAt: string;
  setup: Pick<GradebookSetup, 'mode' | 'rulesVersion' | 'scheme'>;
  grades: CourseGrades;
  overrides: ShownOverride[];
}) {
  const overrides = new Map(input.overrides.map((o) => [o.studentId, o]));
  return {
    courseId: input.courseId,
    computedAt: input.computedAt,
    mode: input.setup.mode,
    rulesVersion: input.setup.rulesVersion,
    students: input.grades.students.map(({ cells: _cells, ...s }) => {
      const o = overrides.get(s.studentId);
      const override = o && (o.letter !== null || o.percent !== null) ? { percent: o.percent, letter: o.letter, version: o.version } : null;
      const { finalPercent, finalLetter } = finalGrade({ calculatedPercent: s.percent, override, scheme: input.setup.scheme });
      return { ...s, override, finalPercent, finalLetter };
    }),
  };
}
