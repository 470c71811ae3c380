import { z } from '@hono/zod-openapi';
import { DEFAULT_RUBRIC, findingItemProblem, rubricItem, rubricProblems } from '../../domain/readiness/index.js';
import { AppError } from '../../errors.js';
import { Id, orNull, Provenance } from '../../schemas/common.js';
import { Course } from '../../schemas/courses.js';
import { AttestationBody, Finding, ReadinessReport, StandardsRubric } from '../../schemas/readiness.js';
import { updateCourse } from '../../store/courses.js';
import {
  assertCoursePublishable,
  courseReadiness,
  courseWithRubric,
  deleteAttestation,
  getFinding,
  listFindings,
  putAttestation,
  putFinding,
} from '../../store/readiness.js';
import { listStoredRubrics, putRubric, rubricById } from '../../store/rubrics.js';
import { defineOperation, type RouteModule } from '../define.js';

const CourseParams = z.object({ courseId: Id });
const ItemParams = z.object({ courseId: Id, itemId: Id });

export const readinessRoutes: RouteModule = [
  defineOperation({
    operationId: 'getReadiness',
    method: 'get',
    path: '/courses/{courseId}/readiness',
    summary: "The course's readiness against its standards rubric",
    tag: 'readiness',
    params: CourseParams,
    response: ReadinessReport,
    handler: async ({ deps, params }) => (await courseReadiness(deps.store, params.courseId, deps.clock.now())).report,
  }),
  defineOperation({
    operationId: 'setAttestation',
    method: 'put',
    path: '/courses/{courseId}/readiness/items/{itemId}/attestation',
    summary: 'Attest an item (replaces an earlier attestation); answers the whole report',
    tag: 'readiness',
    params: ItemParams,
    body: AttestationBody,
    response: ReadinessReport,
    handler: ({ deps, params, body, granted }) =>
      deps.store.tx(async (tx) => {
        const { report, rubric, course } = await courseReadiness(tx, params.courseId, deps.clock.now());
        if (body.rubricId !== course.rubricId) {
          throw new AppError('conflict', `The course uses rubric ${JSON.stringify(course.rubricId)}, not ${JSON.stringify(body.rubricId)}.`, {
            rubricId: course.rubricId,
          });
        }
        const item = rubricItem(rubric, params.itemId);
        if (!item) throw new AppError('not-found', `Item ${JSON.stringify(params.itemId)} is not in rubric ${rubric.id}.`);
        const current = report.standards.flatMap((s) => s.items).find((i) => i.itemId === params.itemId);
        const note = body.note ?? '';
        if (item.kind === 'automatic' && current?.status === 'not-met' && note.trim() === '') {
          throw new AppError('invalid', `note: required when attesting an automatic item that is not met`, [
            { path: 'note', message: 'is required (1 to 2000 characters) when the automatic check is not met' },
          ]);
        }
        const user = granted.caller.user;
        await putAttestation(tx, {
          courseId: params.courseId,
          rubricId: rubric.id,
          itemId: params.itemId,
          status: 'attested',
          by: user.id,
          byName: user.name,
          note,
          at: deps.clock.now(),
        });
        return (await courseReadiness(tx, params.courseId, deps.clock.now())).report;
      }),
  }),
  defineOperation({
    operationId: 'withdrawAttestation',
    method: 'delete',
    path: '/courses/{courseId}/readiness/items/{itemId}/attestation',
    summary: 'Withdraw an attestation; answers the whole report',
    tag: 'readiness',
    params: ItemParams,
    response: ReadinessReport,
    handler: ({ deps, params }) =>
      deps.store.tx(async (tx) => {
        const { course } = await courseWithRubric(tx, params.courseId);
        if (!(await deleteAttestation(tx, params.courseId, course.rubricId, params.itemId))) {
          throw new AppError('not-found', `Item ${JSON.stringify(params.itemId)} has no attestation.`);
        }
        return (await courseReadiness(tx, params.courseId, deps.clock.now())).report;
      }),
  }),
  defineOperation({
    operationId: 'listFindings',
    method: 'get',
    path: '/courses/{courseId}/readiness/findings',
    summary: "The course's AI findings with their review state",
    tag: 'readiness',
    params: CourseParams,
    response: z.array(Finding),
    handler: ({ deps, params }) => listFindings(deps.store, params.courseId),
  }),
  defineOperation({
    operationId: 'putFinding',
    method: 'put',
    path: '/courses/{courseId}/readiness/items/{itemId}/finding',
    summary: 'Store an AI finding for an `ai` item (state draft until a person reviews it)',
    tag: 'readiness',
    params: ItemParams,
    body: z.strictObject({
      verdict: z.enum(['met', 'not-met']),
      evidence: z.string().min(1).max(20_000),
      suggestion: z.string().max(20_000).default(''),
      provenance: orNull(Provenance).default(null),
    }),
    response: Finding,
    handler: ({ deps, params, body }) =>
      deps.store.tx(async (tx) => {
        const { rubric } = await courseWithRubric(tx, params.courseId);
        const item = rubricItem(rubric, params.itemId);
        if (!item) throw new AppError('not-found', `Item ${JSON.stringify(params.itemId)} is not in rubric ${rubric.id}.`);
        const problem = findingItemProblem(item, 'itemId');
        if (problem) throw new AppError('invalid', `Item ${item.number} is ${item.kind}, not ai: findings are for ai items.`, [problem]);
        const finding = {
          courseId: params.courseId,
          itemId: params.itemId,
          ...body,
          state: 'draft' as const,
          reviewedBy: null,
          reviewedAt: null,
          reviewedByName: null,
        };
        await putFinding(tx, finding);
        return finding;
      }),
  }),
  defineOperation({
    operationId: 'reviewFinding',
    method: 'post',
    path: '/courses/{courseId}/readiness/items/{itemId}/finding/review',
    summary: 'Accept or reject an AI finding (records who and when)',
    tag: 'readiness',
    params: ItemParams,
    body: z.strictObject({ decision: z.enum(['accept', 'reject']) }),
    response: Finding,
    handler: ({ deps, params, body, granted }) =>
      deps.store.tx(async (tx) => {
        const finding = await getFinding(tx, params.courseId, params.itemId);
        if (!finding) throw new AppError('not-found', `Item ${JSON.stringify(params.itemId)} has no finding.`);
        const user = granted.caller.user;
        const reviewed = {
          ...finding,
          state: body.decision === 'accept' ? ('accepted' as const) : ('rejected' as const),
          reviewedBy: user.id,
          reviewedByName: user.name,
          reviewedAt: deps.clock.now(),
        };
        await putFinding(tx, reviewed);
        return reviewed;
      }),
  }),
  defineOperation({
    operationId: 'listRubrics',
    method: 'get',
    path: '/rubrics',
    summary: 'Standards rubrics: the built-in default and imported ones',
    tag: 'readiness',
    response: z.array(z.object({ id: z.string(), name: z.string(), attribution: z.string(), builtIn: z.boolean(), items: z.number() })),
    handler: async ({ deps }) =>
      [DEFAULT_RUBRIC, ...(await listStoredRubrics(deps.store))].map((r) => ({
        id: r.id,
        name: r.name,
        attribution: r.attribution,
        builtIn: r.id === DEFAULT_RUBRIC.id,
        items: r.standards.reduce((n, s) => n + s.items.length, 0),
      })),
  }),
  defineOperation({
    operationId: 'getRubric',
    method: 'get',
    path: '/rubrics/{rubricId}',
    summary: 'A standards rubric in full',
    tag: 'readiness',
    params: z.object({ rubricId: Id }),
    response: StandardsRubric,
    handler: async ({ deps, params }) =>
      (await rubricById(deps.store, params.rubricId)) ??
      (() => {
        throw new AppError('not-found', `Rubric ${JSON.stringify(params.rubricId)} was not found.`);
      })(),
  }),
  defineOperation({
    operationId: 'importRubric',
    method: 'post',
    path: '/rubrics',
    summary: 'Import a standards rubric (admins)',
    tag: 'readiness',
    body: StandardsRubric,
    bodyRules: rubricProblems,
    response: StandardsRubric,
    status: 201,
    handler: ({ deps, body }) =>
      deps.store.tx(async (tx) => {
        if (await rubricById(tx, body.id)) throw new AppError('conflict', `Rubric ${JSON.stringify(body.id)} already exists.`);
        await putRubric(tx, body);
        return body;
      }),
  }),
  defineOperation({
    operationId: 'publishCourse',
    method: 'post',
    path: '/courses/{courseId}/publish',
    summary: 'Publish a course; not-ready while readiness blocks publishing',
    tag: 'courses',
    params: CourseParams,
    response: Course,
    handler: ({ deps, params }) =>
      deps.store.tx(async (tx) => {
        const course = await assertCoursePublishable(tx, params.courseId, deps.clock.now());
        if (course.status === 'published') return course;
        const now = deps.clock.now();
        return updateCourse(tx, { ...course, status: 'published', publishedAt: now, updatedAt: now });
      }),
  }),
];
