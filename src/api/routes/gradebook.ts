import { z } from '@hono/zod-openapi';
import { nextCount } from '../../domain/counters.js';
import { computeCourseGrades, computeSetupChecks, type GradebookSetup as SetupValue } from '../../domain/grading/index.js';
import { KNOWN_RULES_VERSIONS, setupProblems } from '../../domain/grading/setup-soundness.js';
import type { GradeSubmission } from '../../domain/grading/types.js';
import { AppError, invalid } from '../../errors.js';
import { Id } from '../../schemas/common.js';
import { CheckCode, DismissBody, ExportQuery, ExportResult, GradebookSetup, SetupCheck } from '../../schemas/gradebook.js';
import { CourseGrades, StudentGrades, type StudentGradesValue } from '../../schemas/grades.js';
import type { Store } from '../../store/db.js';
import { courseSubmissions, loadSetup, publishedItems } from '../../store/gradebook.js';
import { assertSetupVersion, putGradebookSetup } from '../../store/gradebook-setups.js';
import { getStudent } from '../../store/users.js';
import { defineOperation, type RouteModule } from '../define.js';
import { courseGradesPage, gradebookExportStream } from '../gradebook-views.js';
import { MAX_PAGE, nextLink, PageQuery } from '../pagination.js';

const CourseParams = z.object({ courseId: Id });

/** The grades view is always paged: 100 students unless `limit` says otherwise (at most 1000). */
const GradesPageQuery = PageQuery.extend({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE)
    .default(100)
    .openapi({ description: `Students per page (1 to ${MAX_PAGE}, default 100); a Link rel="next" header names the next page.` }),
});

function saveBumped(store: Store, setup: SetupValue, by: string, at: string): Promise<SetupValue> {
  return putGradebookSetup(store, { ...setup, version: nextCount(setup.version, 'The setup version'), updatedBy: by, updatedAt: at });
}

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
      if (rules.length > 0)
        throw new AppError('unsupported', `rulesVersion: ${rules[0]!.message}.`, { rulesVersion: body.rulesVersion, supported: KNOWN_RULES_VERSIONS });
      return deps.store.tx(async (tx) => {
        assertSetupVersion(await loadSetup(tx, params.courseId), body.version);
        return saveBumped(tx, body, granted.caller.user.id, deps.clock.now());
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
    handler: async ({ deps, params }) =>
      computeSetupChecks({
        setup: await loadSetup(deps.store, params.courseId),
        items: await publishedItems(deps.store, params.courseId),
        now: deps.clock.now(),
      }),
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
      deps.store.tx(async (tx) => {
        const now = deps.clock.now();
        const setup = await loadSetup(tx, params.courseId);
        const fires = computeSetupChecks({ setup, items: await publishedItems(tx, params.courseId), now }).some(
          (c) => c.code === body.code && c.target === body.target,
        );
        if (!fires) throw new AppError('not-found', `The check ${body.code} does not fire for target ${JSON.stringify(body.target)}.`);
        if (setup.dismissedChecks.some((d) => d.code === body.code && d.target === body.target)) return setup;
        if (setup.dismissedChecks.length >= 200) throw new AppError('conflict', 'A setup keeps at most 200 dismissed checks; undo one first.', { limit: 200 });
        const next = { ...setup, dismissedChecks: [...setup.dismissedChecks, { code: body.code, target: body.target, by: granted.caller.user.id, at: now }] };
        return saveBumped(tx, next, granted.caller.user.id, now);
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
      deps.store.tx(async (tx) => {
        const setup = await loadSetup(tx, params.courseId);
        const kept = setup.dismissedChecks.filter((d) => !(d.code === params.code && d.target === params.target));
        if (kept.length === setup.dismissedChecks.length)
          throw new AppError('not-found', `The check ${params.code} for ${JSON.stringify(params.target)} is not dismissed.`);
        return saveBumped(tx, { ...setup, dismissedChecks: kept }, granted.caller.user.id, deps.clock.now());
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
    query: GradesPageQuery,
    handler: async ({ deps, params, query, c }) => {
      const { body, next } = await courseGradesPage(deps, c.get('reads'), params.courseId, query);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (next !== null) headers.Link = nextLink(c.req.url, next);
      return new Response(body, { headers });
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
    handler: async ({ deps, params, granted }): Promise<StudentGradesValue> => {
      const setup = await loadSetup(deps.store, params.courseId);
      const items = await publishedItems(deps.store, params.courseId);
      const me = await getStudent(deps.store, params.courseId, granted.caller.user.id);
      // Access let a student of the course in; an enrollment removed since (by another
      // program) leaves nobody to grade.
      if (!me) throw new AppError('forbidden', 'Only students enrolled in the course may see their grades here.');
      const submissions: GradeSubmission[] = [];
      await courseSubmissions(deps.store, params.courseId, [me.id], (batch) => submissions.push(...batch));
      const grades = computeCourseGrades({ setup, items, students: [me], submissions, now: deps.clock.now(), releasedOnly: true, detail: true });
      const { cells: _cells, ...mine } = grades.students[0]!;
      return { courseId: params.courseId, computedAt: deps.clock.now(), ...mine };
    },
  }),
  defineOperation({
    operationId: 'exportGradebook',
    method: 'get',
    path: '/courses/{courseId}/gradebook/export',
    summary: 'The gradebook as RFC 4180 CSV (in {csv}); layout=registrar for Student ID, Student, Email, Final %, Final Letter; bom=true for a byte-order mark',
    tag: 'gradebook',
    params: CourseParams,
    query: ExportQuery,
    response: ExportResult,
    // Streamed a slice of students at a time: a 10,000-student export never sits whole in memory.
    handler: async ({ deps, params, query, c }) =>
      new Response(await gradebookExportStream(deps, c.get('reads'), params.courseId, { layout: query.layout, bom: query.bom === 'true' }), {
        headers: { 'content-type': 'application/json; charset=UTF-8' },
      }),
  }),
];
