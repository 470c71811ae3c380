import { z } from '@hono/zod-openapi';
import {
  computeCourseGrades, computeSetupChecks, type GradebookSetup as SetupValue, letterFor, renderGradebookCsv,
} from '../../domain/grading/index.js';
import { setupProblems, KNOWN_RULES_VERSIONS } from '../../domain/grading/setup-soundness.js';
import { AppError, invalid } from '../../errors.js';
import { Id } from '../../schemas/common.js';
import { CheckCode, DismissBody, ExportResult, FinalGradeBody, FinalGradeHistoryEntry, FinalGradeResult, GradebookSetup, SetupCheck } from '../../schemas/gradebook.js';
import { CourseGrades, type CourseGradesValue, StudentGrades, type StudentGradesValue } from '../../schemas/grades.js';
import type { Store } from '../../store/db.js';
import {
  appendFinalGradeHistory, courseSubmissions, finalGradeHistory, getFinalGrade, listFinalGrades, loadSetup, publishedItems, putFinalGrade,
} from '../../store/gradebook.js';
import { loadSubmissionRecords } from '../../store/grade-cells.js';
import { putGradebookSetup } from '../../store/gradebook-setups.js';
import { getEnrollment, listStudents } from '../../store/users.js';
import { defineOperation, type RouteModule } from '../define.js';

const CourseParams = z.object({ courseId: Id });
const StudentParams = z.object({ courseId: Id, studentId: Id });

/** Everything the grading engine needs for one course at one instant (the staff view). */
export function gradingInput(store: Store, courseId: string) {
  const setup = loadSetup(store, courseId);
  const items = publishedItems(store, courseId);
  const students = listStudents(store, courseId);
  const records = loadSubmissionRecords(store, courseId, items.map((it) => it.id), students.map((s) => s.id));
  return { setup, items, students, records };
}

function saveBumped(store: Store, setup: SetupValue, by: string, at: string): SetupValue {
  return putGradebookSetup(store, { ...setup, version: setup.version + 1, updatedBy: by, updatedAt: at });
}

function requireStudent(store: Store, courseId: string, studentId: string): void {
  if (getEnrollment(store, courseId, studentId)?.role !== 'student') {
    throw new AppError('not-found', `Student ${JSON.stringify(studentId)} is not enrolled in this course.`);
  }
}

const given = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

export const gradebookRoutes: RouteModule = [
  defineOperation({
    operationId: 'getGradebookSetup',
    method: 'get',
    path: '/courses/{courseId}/gradebook/setup',
    summary: "Read the course's gradebook setup",
    tag: 'gradebook',
    params: CourseParams,
    response: GradebookSetup,
    handler: ({ deps, params }) => loadSetup(deps.store, params.courseId),
  }),
  defineOperation({
    operationId: 'replaceGradebookSetup',
    method: 'put',
    path: '/courses/{courseId}/gradebook/setup',
    summary: 'Replace the whole setup; `version` must be the stored version',
    tag: 'gradebook',
    params: CourseParams,
    body: GradebookSetup,
    response: GradebookSetup,
    handler: ({ deps, params, body, granted }) => {
      const problems = setupProblems(body, params.courseId);
      const rules = problems.filter((p) => p.path === 'rulesVersion');
      if (problems.length > rules.length) throw invalid(problems.filter((p) => p.path !== 'rulesVersion'));
      if (rules.length > 0) throw new AppError('unsupported', `rulesVersion: ${rules[0]!.message}.`, { rulesVersion: body.rulesVersion, supported: KNOWN_RULES_VERSIONS });
      return deps.store.tx(() => {
        const current = loadSetup(deps.store, params.courseId);
        if (body.version !== current.version) {
          throw new AppError('conflict', `The setup is at version ${current.version}, not ${body.version}; read it again and reapply your change.`, { currentVersion: current.version });
        }
        return saveBumped(deps.store, body, granted.caller.user.id, deps.clock.now());
      });
    },
  }),
  defineOperation({
    operationId: 'listSetupChecks',
    method: 'get',
    path: '/courses/{courseId}/gradebook/setup/checks',
    summary: 'Setup checks that fire now, with their dismissed flag',
    tag: 'gradebook',
    params: CourseParams,
    response: z.array(SetupCheck),
    handler: ({ deps, params }) =>
      computeSetupChecks({ setup: loadSetup(deps.store, params.courseId), items: publishedItems(deps.store, params.courseId), now: deps.clock.now() }),
  }),
  defineOperation({
    operationId: 'dismissSetupCheck',
    method: 'post',
    path: '/courses/{courseId}/gradebook/setup/dismiss',
    summary: 'Dismiss a setup check that fires now (200 + setup)',
    tag: 'assignments',
    params: CourseParams,
    body: DismissBody,
    response: GradebookSetup,
    handler: ({ deps, params, body, granted }) =>
      deps.store.tx(() => {
        const now = deps.clock.now();
        const setup = loadSetup(deps.store, params.courseId);
        const fires = computeSetupChecks({ setup, items: publishedItems(deps.store, params.courseId), now }).some((c) => c.code === body.code && c.target === body.target);
        if (!fires) throw new AppError('not-found', `The check ${body.code} does not fire for target ${JSON.stringify(body.target)}.`);
        if (setup.dismissedChecks.some((d) => d.code === body.code && d.target === body.target)) return setup;
        if (setup.dismissedChecks.length >= 200) throw new AppError('conflict', 'A setup keeps at most 200 dismissed checks; undo one first.', { limit: 200 });
        const next = { ...setup, dismissedChecks: [...setup.dismissedChecks, { code: body.code, target: body.target, by: granted.caller.user.id, at: now }] };
        return saveBumped(deps.store, next, granted.caller.user.id, now);
      }),
  }),
  defineOperation({
    operationId: 'undismissSetupCheck',
    method: 'delete',
    path: '/courses/{courseId}/gradebook/setup/dismiss/{code}/{target}',
    summary: 'Undo a dismissal (the check is listed as open again while it fires)',
    tag: 'gradebook',
    params: z.object({ courseId: Id, code: CheckCode, target: z.string() }),
    response: GradebookSetup,
    handler: ({ deps, params, granted }) =>
      deps.store.tx(() => {
        const setup = loadSetup(deps.store, params.courseId);
        const kept = setup.dismissedChecks.filter((d) => !(d.code === params.code && d.target === params.target));
        if (kept.length === setup.dismissedChecks.length) throw new AppError('not-found', `The check ${params.code} for ${JSON.stringify(params.target)} is not dismissed.`);
        return saveBumped(deps.store, { ...setup, dismissedChecks: kept }, granted.caller.user.id, deps.clock.now());
      }),
  }),
  defineOperation({
    operationId: 'getCourseGrades',
    method: 'get',
    path: '/courses/{courseId}/gradebook/grades',
    summary: 'Computed grades: per student, per category and course, with letters and final overrides',
    tag: 'gradebook',
    params: CourseParams,
    response: CourseGrades,
    handler: ({ deps, params }): CourseGradesValue => {
      const input = gradingInput(deps.store, params.courseId);
      const now = deps.clock.now();
      const grades = computeCourseGrades({ ...input, now, detail: true });
      const overrides = new Map(listFinalGrades(deps.store, params.courseId).map((f) => [f.studentId, f]));
      return {
        courseId: params.courseId,
        computedAt: now,
        mode: input.setup.mode,
        rulesVersion: input.setup.rulesVersion,
        ...grades,
        students: grades.students.map(({ cells: _cells, ...s }) => {
          const o = overrides.get(s.studentId);
          const override = o && (o.letter !== null || o.percent !== null) ? { percent: o.percent, letter: o.letter, version: o.version } : null;
          const finalPercent = override?.percent ?? s.percent;
          const rounded = override?.percent != null ? Math.round(override.percent * 10) / 10 : finalPercent;
          return { ...s, override, finalPercent, finalLetter: override?.letter ?? letterFor(input.setup.scheme, rounded) };
        }),
      };
    },
  }),
  defineOperation({
    operationId: 'getMyGrades',
    method: 'get',
    path: '/courses/{courseId}/gradebook/me',
    summary: "A student's own grades, counting released grades only",
    tag: 'gradebook',
    params: CourseParams,
    response: StudentGrades,
    handler: ({ deps, params, granted }): StudentGradesValue => {
      const setup = loadSetup(deps.store, params.courseId);
      const items = publishedItems(deps.store, params.courseId);
      const me = listStudents(deps.store, params.courseId).filter((s) => s.id === granted.caller.user.id);
      const submissions = courseSubmissions(deps.store, params.courseId, granted.caller.user.id);
      const grades = computeCourseGrades({ setup, items, students: me, submissions, now: deps.clock.now(), releasedOnly: true, detail: true });
      const { cells: _cells, ...mine } = grades.students[0]!;
      return { courseId: params.courseId, computedAt: deps.clock.now(), ...mine };
    },
  }),
  defineOperation({
    operationId: 'setFinalGrade',
    method: 'put',
    path: '/courses/{courseId}/gradebook/students/{studentId}/final',
    summary: "Set or clear a student's final-grade override (versioned per student)",
    tag: 'gradebook',
    params: StudentParams,
    body: FinalGradeBody,
    response: FinalGradeResult,
    handler: ({ deps, params, body, granted }) => {
      requireStudent(deps.store, params.courseId, params.studentId);
      const letter = given(body.letter);
      const percent = given(body.percent);
      return deps.store.tx(() => {
        const setup = loadSetup(deps.store, params.courseId);
        if (letter !== null && !setup.scheme.bands.some((b) => b.letter === letter)) {
          throw new AppError('invalid', `letter: ${JSON.stringify(letter)} is not a letter of the course's scheme`, [
            { path: 'letter', message: `must be one of ${setup.scheme.bands.map((b) => b.letter).join(', ')}` },
          ]);
        }
        const current = getFinalGrade(deps.store, params.courseId, params.studentId);
        const currentVersion = current?.version ?? 0;
        if (body.expectedVersion !== currentVersion) {
          throw new AppError('conflict', `The override is at version ${currentVersion}, not ${body.expectedVersion}.`, { currentVersion });
        }
        const version = currentVersion + 1;
        const now = deps.clock.now();
        const by = granted.caller.user.id;
        putFinalGrade(deps.store, { courseId: params.courseId, studentId: params.studentId, letter, percent, reason: body.reason, version, updatedBy: by, updatedAt: now });
        appendFinalGradeHistory(deps.store, {
          courseId: params.courseId, studentId: params.studentId, version, oldLetter: current?.letter ?? null, oldPercent: current?.percent ?? null,
          newLetter: letter, newPercent: percent, reason: body.reason, by, at: now,
        });
        return { ok: true, version };
      });
    },
  }),
  defineOperation({
    operationId: 'getFinalGradeHistory',
    method: 'get',
    path: '/courses/{courseId}/gradebook/students/{studentId}/final/history',
    summary: "Every set and clear of a student's override, oldest first",
    tag: 'gradebook',
    params: StudentParams,
    response: z.array(FinalGradeHistoryEntry),
    handler: ({ deps, params }) => {
      requireStudent(deps.store, params.courseId, params.studentId);
      return finalGradeHistory(deps.store, params.courseId, params.studentId);
    },
  }),
  defineOperation({
    operationId: 'exportGradebook',
    method: 'get',
    path: '/courses/{courseId}/gradebook/export',
    summary: 'The gradebook as RFC 4180 CSV (in {csv})',
    tag: 'gradebook',
    params: CourseParams,
    response: ExportResult,
    handler: ({ deps, params }) => {
      const input = gradingInput(deps.store, params.courseId);
      const grades = computeCourseGrades({ ...input, now: deps.clock.now() });
      const overrides = listFinalGrades(deps.store, params.courseId).map((f) => ({ studentId: f.studentId, percent: f.percent, letter: f.letter }));
      return { csv: renderGradebookCsv({ setup: input.setup, items: input.items, students: input.students, grades, overrides }) };
    },
  }),
];
