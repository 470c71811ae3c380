/**
 * Final-grade overrides: set or clear one (versioned per student), and read a student's
 * history of them. A route module of its own: a `PUT` of a final grade (what instructors
 * run in loops, a call per student) loads these two operations and their schemas alone,
 * not the whole gradebook's.
 */
import { z } from '@hono/zod-openapi';
import { Id } from '../../schemas/common.js';
import { FinalGradeBody, FinalGradeHistoryEntry, FinalGradeResult } from '../../schemas/final-grades.js';
import { finalGradeHistory, requireStudent, setFinalGrade } from '../../store/gradebook.js';
import { defineOperation, type RouteModule } from '../define.js';

const StudentParams = z.object({ courseId: Id, studentId: Id });

/** An absent field of the body is null: the override has no such part. */
const given = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

export const finalGradesRoutes: RouteModule = [
  defineOperation({
    operationId: 'setFinalGrade',
    method: 'put',
    path: '/courses/{courseId}/gradebook/students/{studentId}/final',
    summary: "Set or clear a student's final-grade override (versioned per student)",
    tag: 'gradebook',
    params: StudentParams,
    body: FinalGradeBody,
    response: FinalGradeResult,
    handler: ({ deps, params, body, granted }) =>
      setFinalGrade(deps.store, {
        courseId: params.courseId,
        studentId: params.studentId,
        letter: given(body.letter),
        percent: given(body.percent),
        reason: body.reason,
        expectedVersion: body.expectedVersion,
        by: granted.caller.user.id,
        at: deps.clock.now(),
      }),
  }),
  defineOperation({
    operationId: 'getFinalGradeHistory',
    method: 'get',
    path: '/courses/{courseId}/gradebook/students/{studentId}/final/history',
    summary: "Every set and clear of a student's override, oldest first",
    tag: 'gradebook',
    params: StudentParams,
    response: z.array(FinalGradeHistoryEntry),
    handler: async ({ deps, params }) => {
      await requireStudent(deps.store, params.courseId, params.studentId);
      return finalGradeHistory(deps.store, params.courseId, params.studentId);
    },
  }),
];
